import { ACCESS_CODE_LENGTH } from './constants.ts';

// No zod here: the memorial page's first screen formats the code without loading the schemas (access-code.ts).

/**
 * What the card and the Privacy tab print between the digits ('9330 7666', '9330-7666', '9330.7666'): white
 * space (also the non-breaking and thin spaces a mail may carry), hyphens and dashes, dots.
 */
const SEPARATORS = /[\s.\-\u2010-\u2015\u2212]/g;

/** The code as it is compared: its separators taken out. */
export function normaliseAccessCode(typed: string): string {
  return typed.replace(SEPARATORS, '');
}

/**
 * The code in pasted text ('Code: 9330 7666', or a whole line of a mail): the eight digits, grouped or not,
 * when the text holds exactly one such code; else null.
 */
export function accessCodeInText(text: string): string | null {
  const found = text.match(/\d(?:[\s.\-\u2010-\u2015\u2212]?\d)*/g) ?? [];
  const codes = found.map(normaliseAccessCode).filter((digits) => digits.length === ACCESS_CODE_LENGTH);
  return codes.length === 1 ? codes[0]! : null;
}

/**
 * The code grouped as the card prints it: '9330 7666' (and '933' while typing). Anything but digits and
 * separators is left as it was typed, for the form's message to point out.
 */
export function formatAccessCode(typed: string): string {
  const digits = normaliseAccessCode(typed);
  if (!/^\d*$/.test(digits)) return typed;
  return digits.length > 4 ? `${digits.slice(0, 4)} ${digits.slice(4)}` : digits;
}

export const ACCESS_CODE_MESSAGES = {
  type: 'Vul de toegangscode in als tekst van 8 cijfers.',
  required: 'Vul de toegangscode in.',
  format: 'De toegangscode bestaat uit 8 cijfers.',
} as const;
