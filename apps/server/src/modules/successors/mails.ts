import { routes } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** To an owner silent for a year (their own account's address): sign in, or the successor takes over. */
export function inactivityReminderMail(o: {
  to: string;
  name: string | null;
  memorialNames: string[];
  reminder: 1 | 2;
  handOverOn: Date;
  appUrl: string;
}): Mail {
  return buildMail({
    to: o.to,
    name: o.name,
    subject:
      o.reminder === 1
        ? 'Je gedenkpagina bij Aandenken: ben je er nog?'
        : 'Tweede herinnering: je gedenkpagina gaat binnenkort naar je opvolger',
    body: [
      'Je hebt al meer dan een jaar niet ingelogd bij Aandenken. Je bent de enige eigenaar van:',
      { list: o.memorialNames.map((n) => `de gedenkpagina van ${mailName(n) ?? 'een dierbare'}`) },
      `Je hebt een opvolger aangewezen. Log je niet in vóór ${dateNl(o.handOverOn)}, dan wordt je opvolger eigenaar, zodat de pagina beheerd blijft. Je blijft zelf ook eigenaar.`,
      'Wil je dat niet? Log dan in; meer hoef je niet te doen:',
      { link: `${o.appUrl}${routes.myPages}`, label: 'Naar Mijn Pagina’s' },
    ],
  });
}

/** To the new owner (a proven account) when the team handed a page over. */
export function handedOverMail(o: {
  to: string;
  /** The new owner's own name (their account's). */
  name: string | null;
  memorialName: string;
  memorialId: string;
  appUrl: string;
}): Mail {
  const page = mailName(o.memorialName)
    ? `de gedenkpagina van ${mailName(o.memorialName)}`
    : 'een gedenkpagina';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `Je bent nu eigenaar van ${page}`,
    body: [
      `Op verzoek van de familie heeft ons team je eigenaar gemaakt van ${page}. Je vindt de pagina bij Mijn Pagina’s, of direct via deze link:`,
      { link: `${o.appUrl}${routes.memorialManage(o.memorialId)}`, label: 'Naar het beheer van de pagina' },
    ],
  });
}
