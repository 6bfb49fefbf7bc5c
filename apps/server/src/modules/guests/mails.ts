import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml, mailName } from '../../lib/mail-format.ts';

/**
 * The access mail: a one-time link, and the code for the private-page form. The subject never holds the
 * code. The recipient has not proven their address, so the names in it (the recipient's as the sender
 * typed it, the sender's own, the memorial's) are one line without links (`mailName`), or our own words.
 */
export function accessMail(input: {
  to: string;
  recipientName: string | null;
  senderName: string | null;
  memorialName: string;
  accessCode: string;
  linkUrl: string;
  formUrl: string;
  linkExpiresAt: Date;
}): Mail {
  const a = {
    ...input,
    recipientName: mailName(input.recipientName),
    senderName: mailName(input.senderName) ?? 'Iemand',
    memorialName: mailName(input.memorialName),
  };
  const memorial = a.memorialName
    ? `de besloten gedenkpagina van ${a.memorialName}`
    : 'een besloten gedenkpagina';
  const text = [
    a.recipientName ? `Beste ${a.recipientName},` : 'Beste,',
    '',
    `${a.senderName} deelt ${memorial} op Aandenken met je.`,
    '',
    `Open de pagina direct via deze link (werkt één keer, tot en met ${dateNl(a.linkExpiresAt)}):`,
    a.linkUrl,
    '',
    `Of ga naar ${a.formUrl} en vul deze toegangscode in: ${a.accessCode}`,
    '',
    'Bewaar de code goed en deel hem alleen met mensen die de pagina mogen zien.',
    '',
    'Met vriendelijke groet,',
    'Het team van Aandenken',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>${a.recipientName ? `Beste ${e(a.recipientName)},` : 'Beste,'}</p>`,
    `<p>${e(a.senderName)} deelt ${a.memorialName ? `de besloten gedenkpagina van <strong>${e(a.memorialName)}</strong>` : 'een besloten gedenkpagina'} op Aandenken met je.</p>`,
    `<p><a href="${e(a.linkUrl)}">Open de gedenkpagina</a> (deze link werkt één keer, tot en met ${e(dateNl(a.linkExpiresAt))}).</p>`,
    `<p>Of ga naar <a href="${e(a.formUrl)}">${e(a.formUrl)}</a> en vul deze toegangscode in: <strong>${e(a.accessCode)}</strong></p>`,
    '<p>Bewaar de code goed en deel hem alleen met mensen die de pagina mogen zien.</p>',
    '<p>Met vriendelijke groet,<br>Het team van Aandenken</p>',
  ].join('\n');
  return {
    to: a.to,
    subject: a.memorialName
      ? `Toegang tot de gedenkpagina van ${a.memorialName}`
      : 'Toegang tot een besloten gedenkpagina',
    text,
    html,
  };
}
