import { describe, expect, it } from 'vitest';
import { shareContent } from './share-text.ts';

const johanna = {
  slug: 'johanna-de-vries-1948-2024',
  firstName: 'Johanna',
  lastName: 'de Vries',
  visibility: 'public' as const,
  accessCode: null,
};

describe('what Delen sends', () => {
  it('a public page: its readable address', () => {
    const c = shareContent(johanna, 'https://aandenken.nl');
    expect(c.url).toBe('https://aandenken.nl/gedenkpagina/johanna-de-vries-1948-2024');
    expect(c.message).toBe(
      'Bekijk de gedenkpagina van Johanna de Vries: https://aandenken.nl/gedenkpagina/johanna-de-vries-1948-2024',
    );
    expect(c.withCode).toBe(false);
  });

  it('a private page shared by someone who sees the code: link and code in one message', () => {
    const c = shareContent(
      { ...johanna, visibility: 'private', accessCode: '93307666' },
      'https://aandenken.nl',
    );
    expect(c.message).toBe(
      'Bekijk de gedenkpagina van Johanna de Vries: https://aandenken.nl/gedenkpagina/johanna-de-vries-1948-2024 — de toegangscode is 9330 7666.',
    );
    expect(c.text).toBe('Bekijk de gedenkpagina van Johanna de Vries. De toegangscode is 9330 7666.');
    expect(c.withCode).toBe(true);
  });

  it('a private page shared by a guest (no code to see): the link only', () => {
    const c = shareContent({ ...johanna, visibility: 'private' }, 'https://aandenken.nl');
    expect(c.withCode).toBe(false);
    expect(c.message).not.toContain('toegangscode');
  });
});
