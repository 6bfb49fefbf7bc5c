/** Small pieces every mail template needs. */
import { looksLikeLink } from '@aandenken/contract';

/** Text made safe to put in a mail's HTML part. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A date as people in the Netherlands write it: '22 november 2026'. */
export const dateNl = (d: Date) =>
  new Intl.DateTimeFormat('nl-NL', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Amsterdam',
  }).format(d);

/** The longest name a mail carries; a longer one is cut off with an ellipsis. */
export const MAIL_NAME_MAX = 100;

/**
 * Someone else's words as they may appear in a mail to an address that has not proven itself: one line
 * (newlines, tabs, control, zero-width and bidirectional characters become spaces, runs of spaces one), at
 * most MAIL_NAME_MAX characters, and nothing that looks like a link, a domain or an e-mail address; such a
 * name gives `undefined`, so the mail says something of our own instead. Input is refused at entry
 * (`personNameChecks` in the contract); this also holds for names stored before that, or from elsewhere
 * (a Google account's name, an external realm).
 */
export function mailName(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const line = raw
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}]+/gu, ' ')
    .trim();
  if (!line || looksLikeLink(line)) return undefined;
  const chars = Array.from(line);
  return chars.length > MAIL_NAME_MAX
    ? `${chars
        .slice(0, MAIL_NAME_MAX - 1)
        .join('')
        .trimEnd()}…`
    : line;
}

/**
 * A mail's first line: 'Beste Anna,' when the recipient's name is known and safe to show (see mailName),
 * else 'Hallo,' rather than a bare 'Beste,'.
 */
export function greeting(name: string | null | undefined): string {
  const safe = mailName(name);
  return safe ? `Beste ${safe},` : 'Hallo,';
}
