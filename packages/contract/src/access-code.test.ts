import { describe, expect, it } from 'vitest';
import {
  ACCESS_CODE_MESSAGES,
  accessCodeInText,
  accessCodeSchema,
  formatAccessCode,
  guestTokenCreateSchema,
} from './index.ts';

const parsed = (v: unknown) => accessCodeSchema.safeParse(v);
const message = (v: unknown) => parsed(v).error?.issues[0]?.message;

describe('the access code as people type it', () => {
  it('ignores the spaces, dashes and dots the card and the Privacy tab print', () => {
    for (const typed of [
      '93307666',
      '9330 7666',
      '9330-7666',
      '9330.7666',
      ' 9330 7666 ',
      '9330\u00a07666', // non-breaking space, as a mail may carry it
      '9330\u20137666', // en dash
      '93 30 76 66',
    ]) {
      expect(parsed(typed).data, typed).toBe('93307666');
    }
    expect(guestTokenCreateSchema.parse({ accessCode: '9330 7666' }).accessCode).toBe('93307666');
  });

  it('says in Dutch what is wrong', () => {
    expect(message('')).toBe(ACCESS_CODE_MESSAGES.required);
    expect(message(' - ')).toBe(ACCESS_CODE_MESSAGES.required);
    expect(message('9330 766')).toBe(ACCESS_CODE_MESSAGES.format);
    expect(message('9330 76666')).toBe(ACCESS_CODE_MESSAGES.format);
    expect(message('9330_7666')).toBe(ACCESS_CODE_MESSAGES.format);
    expect(message('Code: 9330 7666')).toBe(ACCESS_CODE_MESSAGES.format);
    expect(message(93307666)).toBe(ACCESS_CODE_MESSAGES.type);
    expect(ACCESS_CODE_MESSAGES).toEqual({
      type: 'Vul de toegangscode in als tekst van 8 cijfers.',
      required: 'Vul de toegangscode in.',
      format: 'De toegangscode bestaat uit 8 cijfers.',
    });
  });

  it('finds the one code in pasted text', () => {
    expect(accessCodeInText('Code: 9330 7666')).toBe('93307666');
    expect(accessCodeInText('Je toegangscode is 9330-7666.\nTot ziens')).toBe('93307666');
    expect(accessCodeInText('93307666')).toBe('93307666');
    expect(accessCodeInText('Code: 9330 766')).toBeNull();
    expect(accessCodeInText('geen code')).toBeNull();
    // Two candidates (a date and a code): which one is meant is not ours to guess.
    expect(accessCodeInText('Op 12-03-2026 kreeg je code 9330 7666')).toBeNull();
  });

  it('groups the code as the card prints it while it is typed', () => {
    expect(formatAccessCode('')).toBe('');
    expect(formatAccessCode('933')).toBe('933');
    expect(formatAccessCode('9330')).toBe('9330');
    expect(formatAccessCode('93307')).toBe('9330 7');
    expect(formatAccessCode('9330-7666')).toBe('9330 7666');
    expect(formatAccessCode('93 307 666')).toBe('9330 7666');
    expect(formatAccessCode('9330 766a')).toBe('9330 766a');
  });
});
