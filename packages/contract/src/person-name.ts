import * as z from 'zod/mini';

/**
 * Names that end up in mails from our address to someone who has not proven their address (an invitation,
 * an access-code mail, a partner confirmation, a verification or reset mail): one line, no link. Someone
 * else's words reach that mailbox only as a name (docs/security.md, item 5).
 */

/**
 * Characters that break or bend a line or hide text: C0 and C1 controls (newlines, tabs), the line and
 * paragraph separators, bidirectional overrides and isolates, zero-width characters, the byte-order mark.
 */
const HIDDEN_OR_LINE_BREAKING =
  /[\p{Cc}\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]/u;

/** Whether `s` holds a newline, a control character or a character that hides or reorders text. */
export const hasHiddenOrLineBreakingCharacters = (s: string) => HIDDEN_OR_LINE_BREAKING.test(s);

/**
 * Whether `s` looks like something a mail program turns into a link, or a reader types into a browser or
 * a mail program: a URL scheme (`http:`), `www.`, an e-mail address, or a domain (`word.word`, in any
 * script). Checked on the NFKC form in lower case, so full-width letters and dots (`ｗｗｗ．`, `。`) count
 * too. A name with a dot directly before a word (`v.d.Berg`) is refused as well; with a space (`v.d. Berg`)
 * it is fine.
 */
export function looksLikeLink(s: string): boolean {
  const t = s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u3002\uFF61]/g, '.');
  return (
    t.includes('@') ||
    t.includes('://') ||
    /(?:^|[^\p{L}\p{N}])(?:https?|ftp|mailto|file|javascript|data|tel|sms)\s*:/u.test(t) ||
    /(?:^|[^\p{L}\p{N}])www\s*\./u.test(t) ||
    /[\p{L}\p{N}][\p{L}\p{N}-]*\.\p{L}[\p{L}\p{N}-]+/u.test(t)
  );
}

export const PERSON_NAME_LINK_MESSAGE = 'Een naam mag geen link, webadres of e-mailadres bevatten';
export const PERSON_NAME_LINE_MESSAGE = 'Een naam past op één regel, zonder tabs of onzichtbare tekens';

/** The checks every name that may be mailed to an unproven address gets, as zod checks (after trim). */
export const personNameChecks = () => [
  z.refine<string>((s) => !hasHiddenOrLineBreakingCharacters(s), PERSON_NAME_LINE_MESSAGE),
  z.refine<string>((s) => !looksLikeLink(s), PERSON_NAME_LINK_MESSAGE),
];
