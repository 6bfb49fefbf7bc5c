import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

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
  const sender = mailName(input.senderName) ?? 'Iemand';
  const memorial = mailName(input.memorialName);
  return buildMail({
    to: input.to,
    name: input.recipientName,
    subject: memorial
      ? `Toegang tot de gedenkpagina van ${memorial}`
      : 'Toegang tot een besloten gedenkpagina',
    body: [
      [
        `${sender} deelt `,
        ...(memorial
          ? ['de besloten gedenkpagina van ', { strong: memorial }]
          : ['een besloten gedenkpagina']),
        ' op Aandenken met je.',
      ],
      `Open de pagina direct via deze link (werkt één keer, tot en met ${dateNl(input.linkExpiresAt)}):`,
      { link: input.linkUrl, label: 'Open de gedenkpagina' },
      ['Of ga naar de pagina hieronder en vul deze toegangscode in: ', { strong: input.accessCode }],
      { link: input.formUrl, label: 'Toegangscode invullen' },
      'Bewaar de code goed en deel hem alleen met mensen die de pagina mogen zien.',
    ],
  });
}

/** To the team (ADMIN_EMAILS): the global budget of wrong access codes is used up; at most once an hour. */
export function budgetExceededMail(a: { to: string[]; failures: number; budget: number }): Mail {
  return buildMail({
    audience: 'team',
    to: a.to,
    subject: 'Veel onjuiste toegangscodes: bezoekers krijgen een rekenpuzzel',
    body: [
      `In het afgelopen uur zijn er ${a.failures} of meer onjuiste toegangscodes ingevuld, vanaf alle adressen samen (de grens is ${a.budget}).`,
      'Zolang dat zo is, lost de browser van elke bezoeker die een code invult eerst een korte rekenpuzzel op voordat de code wordt gecontroleerd. Bezoekers kunnen dus nog steeds binnen; wie veel codes probeert, doet er veel langer over.',
      'Links uit mails en van kaartjes die de pagina noemen, werken zonder puzzel (met een eigen grens per pagina).',
      'Kijk in het serverlog naar de meldingen access_code.failed en access_code.limited om te zien wat er gebeurt. Deze mail komt hooguit één keer per uur.',
    ],
  });
}

/** To the owners of a memorial: many wrong codes named their page (once, at ACCESS_CODE_MEMORIAL_OWNER_ALERT). */
export function memorialFailuresMail(a: {
  to: string;
  ownerName: string | null;
  memorialName: string;
  failures: number;
  manageUrl: string;
}): Mail {
  const memorial = mailName(a.memorialName) ?? 'je dierbare';
  return buildMail({
    to: a.to,
    name: a.ownerName,
    subject: `Veel onjuiste toegangscodes voor de gedenkpagina van ${memorial}`,
    body: [
      `Via links naar de gedenkpagina van ${memorial} zijn inmiddels ${a.failures} onjuiste toegangscodes ingevuld.`,
      'Dat kan betekenen dat iemand de code probeert te raden. Na 10 onjuiste codes in een kwartier gaat het invullen van codes voor deze pagina een tijd op slot, en die tijd wordt steeds langer. Uitnodigingen blijven werken.',
      'Wil je zeker zijn? Maak op de pagina een nieuwe toegangscode, of zet de pagina op ‘Alleen op uitnodiging’: dan werkt geen enkele code meer.',
      { link: a.manageUrl, label: 'Naar het beheer van de pagina' },
    ],
  });
}
