import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml, mailName } from '../../lib/mail-format.ts';

/**
 * A colleague's invitation, to an address that has not proven itself: only our words, and the names
 * (the inviter's, the company's) as one line without links (`mailName`). The link opens the portal's
 * sign-in or registration with the address filled in; joining needs that address verified.
 */
export function colleagueInviteMail(i: {
  to: string;
  companyName: string;
  inviterName: string | null;
  partnerUrl: string;
  expiresAt: Date;
}): Mail {
  const company = mailName(i.companyName);
  const inviter = mailName(i.inviterName) ?? 'Een collega';
  const what = company ? `het bedrijf ${company}` : 'een uitvaartonderneming';
  const text = [
    'Hallo,',
    '',
    `${inviter} nodigt je uit om als collega ${what} te beheren op Aandenken: gedenkpagina’s maken voor families en het bedrijf bijhouden.`,
    '',
    `Log in of maak een account aan met dit e-mailadres (${i.to}) via de link hieronder. Zodra je e-mailadres is bevestigd, hoor je bij het bedrijf.`,
    '',
    i.partnerUrl,
    '',
    `De uitnodiging is geldig tot en met ${dateNl(i.expiresAt)}.`,
    'Verwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.',
    '',
    'Met vriendelijke groet,',
    'Het team van Aandenken',
  ];
  const e = escapeHtml;
  const html = [
    '<p>Hallo,</p>',
    `<p>${e(inviter)} nodigt je uit om als collega ${company ? `het bedrijf <strong>${e(company)}</strong>` : 'een uitvaartonderneming'} te beheren op Aandenken: gedenkpagina’s maken voor families en het bedrijf bijhouden.</p>`,
    `<p>Log in of maak een account aan met dit e-mailadres (${e(i.to)}). Zodra je e-mailadres is bevestigd, hoor je bij het bedrijf.</p>`,
    `<p><a href="${e(i.partnerUrl)}">Naar het partnerportaal</a></p>`,
    `<p>De uitnodiging is geldig tot en met ${e(dateNl(i.expiresAt))}. Verwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.</p>`,
    '<p>Met vriendelijke groet,<br>Het team van Aandenken</p>',
  ].join('\n');
  return {
    to: i.to,
    subject: company ? `Uitnodiging: collega bij ${company}` : 'Uitnodiging voor een uitvaartonderneming',
    text: text.join('\n'),
    html,
  };
}

/**
 * The family's invitation to take over the page the company made. Unproven address: our words, the
 * names through `mailName`. The link is the only way in; taking over needs a verified address.
 */
export function handoverMail(i: {
  to: string;
  companyName: string;
  memorialName: string;
  acceptUrl: string;
  expiresAt: Date;
}): Mail {
  const company = mailName(i.companyName) ?? 'Je uitvaartondernemer';
  const name = mailName(i.memorialName);
  const page = name ? `de gedenkpagina van ${name}` : 'een gedenkpagina';
  const text = [
    'Hallo,',
    '',
    `${company} heeft op Aandenken ${page} voor je gemaakt. Je kunt de pagina nu overnemen: je wordt de eigenaar en bepaalt wie de pagina ziet en beheert.`,
    '',
    'Neem de pagina over via deze link (je logt in of maakt een account aan en bevestigt je e-mailadres):',
    i.acceptUrl,
    '',
    `Bij het overnemen kies je of ${company} de pagina mag blijven meebeheren, en of op de pagina mag staan dat zij de uitvaart verzorgden. Je kunt dat later altijd wijzigen.`,
    '',
    `De link is geldig tot en met ${dateNl(i.expiresAt)}.`,
    'Verwachtte je deze e-mail niet? Dan kun je hem negeren.',
    '',
    'Met vriendelijke groet,',
    'Het team van Aandenken',
  ];
  const e = escapeHtml;
  const html = [
    '<p>Hallo,</p>',
    `<p>${e(company)} heeft op Aandenken ${name ? `de gedenkpagina van <strong>${e(name)}</strong>` : 'een gedenkpagina'} voor je gemaakt. Je kunt de pagina nu overnemen: je wordt de eigenaar en bepaalt wie de pagina ziet en beheert.</p>`,
    `<p><a href="${e(i.acceptUrl)}">Pagina overnemen</a></p>`,
    `<p>Bij het overnemen kies je of ${e(company)} de pagina mag blijven meebeheren, en of op de pagina mag staan dat zij de uitvaart verzorgden. Je kunt dat later altijd wijzigen.</p>`,
    `<p>De link is geldig tot en met ${e(dateNl(i.expiresAt))}. Verwachtte je deze e-mail niet? Dan kun je hem negeren.</p>`,
    '<p>Met vriendelijke groet,<br>Het team van Aandenken</p>',
  ].join('\n');
  return { to: i.to, subject: `Neem ${page} over`, text: text.join('\n'), html };
}
