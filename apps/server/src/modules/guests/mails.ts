import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml, greeting, mailName } from '../../lib/mail-format.ts';

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
    greeting(a.recipientName),
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
    `<p>${e(greeting(a.recipientName))}</p>`,
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

/** To the team (ADMIN_EMAILS): the global budget of wrong access codes is used up; at most once an hour. */
export function budgetExceededMail(a: { to: string[]; failures: number; budget: number }): Mail {
  const text = [
    'Beste collega,',
    '',
    `In het afgelopen uur zijn er ${a.failures} of meer onjuiste toegangscodes ingevuld, vanaf alle adressen samen (de grens is ${a.budget}).`,
    '',
    'Zolang dat zo is, lost de browser van elke bezoeker die een code invult eerst een korte rekenpuzzel op voordat de code wordt gecontroleerd. Bezoekers kunnen dus nog steeds binnen; wie veel codes probeert, doet er veel langer over.',
    '',
    'Links uit mails en van kaartjes die de pagina noemen, werken zonder puzzel (met een eigen grens per pagina).',
    '',
    'Kijk in het serverlog naar de meldingen access_code.failed en access_code.limited om te zien wat er gebeurt. Deze mail komt hooguit één keer per uur.',
    '',
    'Aandenken',
  ].join('\n');
  return {
    to: a.to,
    subject: 'Veel onjuiste toegangscodes: bezoekers krijgen een rekenpuzzel',
    text,
    html: text
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p)}</p>`)
      .join('\n'),
  };
}

/** To the owners of a memorial: many wrong codes named their page (once, at ACCESS_CODE_MEMORIAL_OWNER_ALERT). */
export function memorialFailuresMail(a: {
  to: string;
  ownerName: string | null;
  memorialName: string;
  failures: number;
  manageUrl: string;
}): Mail {
  const text = [
    greeting(a.ownerName),
    '',
    `Via links naar de gedenkpagina van ${a.memorialName} zijn inmiddels ${a.failures} onjuiste toegangscodes ingevuld.`,
    '',
    'Dat kan betekenen dat iemand de code probeert te raden. Na 10 onjuiste codes in een kwartier gaat het invullen van codes voor deze pagina een tijd op slot, en die tijd wordt steeds langer. Uitnodigingen blijven werken.',
    '',
    `Wil je zeker zijn? Maak op de pagina een nieuwe toegangscode, of zet de pagina op "Alleen op uitnodiging": dan werkt geen enkele code meer. ${a.manageUrl}`,
    '',
    'Met vriendelijke groet,',
    'Het team van Aandenken',
  ].join('\n');
  return {
    to: a.to,
    subject: `Veel onjuiste toegangscodes voor de gedenkpagina van ${a.memorialName}`,
    text,
    html: text
      .split('\n\n')
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('\n'),
  };
}
