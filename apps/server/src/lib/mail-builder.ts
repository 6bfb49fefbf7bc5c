/**
 * The one way to write a mail (docs/decisions/021-mail-builder.md): a mail says what it says as blocks, and
 * the layout adds the greeting, the sign-off and the footer once, and makes the text and the HTML part from
 * those same blocks. Every string is escaped in the HTML part, so a name or a page name never becomes markup.
 */
import type { Mail } from './mailer.ts';
import { escapeHtml, greeting } from './mail-format.ts';

/** Part of a paragraph: plain words, or words shown bold in the HTML part (a code, a page's name). */
export type Inline = string | { strong: string };

export type Block =
  /** A paragraph; a newline in it is a line break. */
  | string
  | Inline[]
  /** An address to open: on its own line in the text part, a link with this label in the HTML part. */
  | { link: string; label: string }
  /** Bullet points. */
  | { list: string[] };

interface MailBase {
  to: string | string[];
  subject: string;
  body: Block[];
  /** Why the recipient gets this mail and how to stop it; under the sign-off, before our name. */
  footer?: Block[];
  replyTo?: string;
  headers?: Record<string, string>;
}

/** To a person (family, visitor, partner): 'Beste {naam},' or 'Hallo,', and our sign-off. */
export interface PersonMail extends MailBase {
  audience?: 'person';
  /** The recipient's name as stored, shown only when `mailName` finds it safe; null when not known. */
  name: string | null | undefined;
}

/** To the team of Aandenken: a notice, no greeting or sign-off. */
export interface TeamMail extends MailBase {
  audience: 'team';
}

/** Someone else's letter that we deliver (a family's future message): it opens and closes itself. */
export interface LetterMail extends MailBase {
  audience: 'letter';
}

export const SIGN_OFF = ['Met vriendelijke groet,', 'Het team van Aandenken'] as const;
export const FOOTER_LINE = 'Aandenken: gedenkpagina’s om samen te herdenken';
const TEAM_FOOTER = 'Een bericht van Aandenken aan het team.';

const plain = (parts: Inline[]) => parts.map((p) => (typeof p === 'string' ? p : p.strong)).join('');

/** Only our own web addresses are mailed as links. */
function checkedUrl(url: string) {
  if (!/^https?:\/\//.test(url)) throw new Error(`a mail links only to http(s) addresses, not ${url}`);
  return url;
}

function textOf(block: Block): string {
  if (typeof block === 'string') return block;
  if (Array.isArray(block)) return plain(block);
  if ('link' in block) return checkedUrl(block.link);
  return block.list.map((item) => `- ${item}`).join('\n');
}

const P = 'margin:0 0 16px';
const A = 'color:#5b4636;text-decoration:underline';
const htmlLines = (s: string) => escapeHtml(s).replace(/\n/g, '<br>');

function htmlOf(block: Block): string {
  if (typeof block === 'string') return `<p style="${P}">${htmlLines(block)}</p>`;
  if (Array.isArray(block))
    return `<p style="${P}">${block
      .map((p) => (typeof p === 'string' ? htmlLines(p) : `<strong>${htmlLines(p.strong)}</strong>`))
      .join('')}</p>`;
  if ('link' in block)
    return `<p style="${P}"><a href="${escapeHtml(checkedUrl(block.link))}" style="${A}">${escapeHtml(block.label)}</a></p>`;
  return `<ul style="${P};padding-left:20px">${block.list.map((item) => `<li>${htmlLines(item)}</li>`).join('')}</ul>`;
}

/** The mail, with its text and HTML parts made from the same blocks. */
export function buildMail(m: PersonMail | TeamMail | LetterMail): Mail {
  const person = m.audience === undefined || m.audience === 'person';
  const head: Block[] = 'name' in m ? [greeting(m.name)] : [];
  const signOff: Block[] = person ? [SIGN_OFF.join('\n')] : [];
  const footer: Block[] = [...(m.footer ?? []), m.audience === 'team' ? TEAM_FOOTER : FOOTER_LINE];
  const main = [...head, ...m.body, ...signOff];
  const text = `${main.map(textOf).join('\n\n')}\n\n—\n${footer.map(textOf).join('\n')}\n`;
  const html = [
    '<!doctype html>',
    '<html lang="nl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(m.subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f7f4ef">',
    '<div style="max-width:560px;margin:0 auto;padding:32px 24px;font-family:Georgia,\'Times New Roman\',serif;font-size:16px;line-height:1.55;color:#2e2a26">',
    ...main.map(htmlOf),
    '<div style="margin-top:32px;padding-top:16px;border-top:1px solid #ddd5ca;font-size:13px;color:#6b625a">',
    ...footer.map(htmlOf),
    '</div></div></body></html>',
  ].join('\n');
  return {
    to: m.to,
    subject: m.subject,
    text,
    html,
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    ...(m.headers ? { headers: m.headers } : {}),
  };
}
