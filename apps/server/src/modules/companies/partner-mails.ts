import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/**
 * A colleague's invitation, to an address that has not proven itself: only our words, and the names
 * (the inviter's, the company's) as one line without links (`mailName`). The link opens the portal's
 * sign-in or registration with the address filled in; joining needs that address verified. The invitee's
 * name is not asked, so the mail says 'Hallo,'.
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
  return buildMail({
    to: i.to,
    name: null,
    subject: company ? `Uitnodiging: collega bij ${company}` : 'Uitnodiging voor een uitvaartonderneming',
    body: [
      [
        `${inviter} nodigt je uit om als collega `,
        ...(company ? ['het bedrijf ', { strong: company }] : ['een uitvaartonderneming']),
        ' te beheren op Aandenken: gedenkpagina’s maken voor families en het bedrijf bijhouden.',
      ],
      `Log in of maak een account aan met dit e-mailadres (${i.to}) via de link hieronder. Zodra je e-mailadres is bevestigd, hoor je bij het bedrijf.`,
      { link: i.partnerUrl, label: 'Naar het partnerportaal' },
      `De uitnodiging is geldig tot en met ${dateNl(i.expiresAt)}.\nVerwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.`,
    ],
  });
}

/**
 * The family's invitation to take over the page the company made. Unproven address: our words, the
 * names through `mailName`. The link is the only way in; taking over needs a verified address. The
 * company gives only the family's address, not a name, so the mail says 'Hallo,'.
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
  return buildMail({
    to: i.to,
    name: null,
    subject: `Neem ${page} over`,
    body: [
      [
        `${company} heeft op Aandenken `,
        ...(name ? ['de gedenkpagina van ', { strong: name }] : ['een gedenkpagina']),
        ' voor je gemaakt. Je kunt de pagina nu overnemen: je wordt de eigenaar en bepaalt wie de pagina ziet en beheert.',
      ],
      'Neem de pagina over via deze link (je logt in of maakt een account aan en bevestigt je e-mailadres):',
      { link: i.acceptUrl, label: 'Pagina overnemen' },
      `Bij het overnemen kies je of ${company} de pagina mag blijven meebeheren, en of op de pagina mag staan dat zij de uitvaart verzorgden. Je kunt dat later altijd wijzigen.`,
      `De link is geldig tot en met ${dateNl(i.expiresAt)}.\nVerwachtte je deze e-mail niet? Dan kun je hem negeren.`,
    ],
  });
}
