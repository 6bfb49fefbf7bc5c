import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml } from '../../lib/mail-format.ts';

/** The access mail: a one-time link, and the code for the private-page form. The subject never holds the code. */
export function accessMail(a: {
  to: string;
  recipientName: string | null;
  senderName: string;
  memorialName: string;
  accessCode: string;
  linkUrl: string;
  formUrl: string;
  linkExpiresAt: Date;
}): Mail {
  const text = [
    a.recipientName ? `Beste ${a.recipientName},` : 'Beste,',
    '',
    `${a.senderName} deelt de besloten gedenkpagina van ${a.memorialName} op Aandenken met je.`,
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
    `<p>${e(a.senderName)} deelt de besloten gedenkpagina van <strong>${e(a.memorialName)}</strong> op Aandenken met je.</p>`,
    `<p><a href="${e(a.linkUrl)}">Open de gedenkpagina</a> (deze link werkt één keer, tot en met ${e(dateNl(a.linkExpiresAt))}).</p>`,
    `<p>Of ga naar <a href="${e(a.formUrl)}">${e(a.formUrl)}</a> en vul deze toegangscode in: <strong>${e(a.accessCode)}</strong></p>`,
    '<p>Bewaar de code goed en deel hem alleen met mensen die de pagina mogen zien.</p>',
    '<p>Met vriendelijke groet,<br>Het team van Aandenken</p>',
  ].join('\n');
  return { to: a.to, subject: `Toegang tot de gedenkpagina van ${a.memorialName}`, text, html };
}
