import { describe, expect, it } from 'vitest';
import { hasHiddenOrLineBreakingCharacters, inviteCreateSchema, looksLikeLink } from './index.ts';

describe('names mailed to an unproven address', () => {
  it('lets ordinary names through, initials, prefixes and surnames such as Tel and Data included', () => {
    for (const name of [
      'Anna de Vries',
      "Marie-José van 't Hof",
      'J.P. de Vries',
      'A.B.C. de Boer',
      'Dhr. H. Jansen',
      "Seán O'Brien",
      'Jan (Johannes) de Wit',
      'Henk & Ans',
      'Jan Tel',
      'Data Willems',
      'Ds. W. van der Berg-Smit',
      'Zoë Çelik',
      'Мария Иванова',
      '王小明',
    ]) {
      expect(looksLikeLink(name), name).toBe(false);
      expect(hasHiddenOrLineBreakingCharacters(name), name).toBe(false);
    }
  });

  it('recognises links, domains and addresses, also in full-width letters and other dots', () => {
    for (const name of [
      'http://evil.example',
      'HTTPS://EVIL',
      'zie https: //x',
      'mailto:iemand',
      'www.evil',
      'WWW . evil',
      'evil.example',
      'Bezoek evil.nl/prijs',
      'münchen.de',
      'iemand@evil',
      'ｗｗｗ．ｅｖｉｌ．ｎｌ',
      'evil。nl',
      'evil．nl',
      'tel:0900',
    ]) {
      expect(looksLikeLink(name), name).toBe(true);
    }
  });

  it('finds newlines, tabs, separators and characters that hide or reorder text', () => {
    for (const name of ['a\nb', 'a\rb', 'a\tb', 'a\u2028b', 'a\u202Eb', 'a\u200Bb', 'a\uFEFFb', 'a\u0085b']) {
      expect(hasHiddenOrLineBreakingCharacters(name), JSON.stringify(name)).toBe(true);
    }
  });

  it('gives the form the message at the name field', () => {
    const r = inviteCreateSchema.safeParse({ email: 'a@b.nl', name: 'Kijk op www.evil.nl' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['name', 'Een naam mag geen link, webadres of e-mailadres bevatten'],
    ]);
    expect(inviteCreateSchema.parse({ email: 'a@b.nl', name: ' Joost ' }).name).toBe('Joost');
  });
});
