import { routes } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { dateNl, greeting, mailName } from '../../lib/mail-format.ts';

/** To an owner silent for a year (their own account's address): sign in, or the successor takes over. */
export function inactivityReminderMail(o: {
  to: string;
  name: string | null;
  memorialNames: string[];
  reminder: 1 | 2;
  handOverOn: Date;
  appUrl: string;
}): Mail {
  const name = mailName(o.name);
  const pages = o.memorialNames.map((n) => `- de gedenkpagina van ${mailName(n) ?? 'een dierbare'}`);
  return {
    to: o.to,
    subject:
      o.reminder === 1
        ? 'Je gedenkpagina bij Aandenken: ben je er nog?'
        : 'Tweede herinnering: je gedenkpagina gaat binnenkort naar je opvolger',
    text: [
      greeting(name),
      '',
      'Je hebt al meer dan een jaar niet ingelogd bij Aandenken. Je bent de enige eigenaar van:',
      ...pages,
      '',
      `Je hebt een opvolger aangewezen. Log je niet in vóór ${dateNl(o.handOverOn)}, dan wordt je opvolger eigenaar, zodat de pagina beheerd blijft. Je blijft zelf ook eigenaar.`,
      '',
      'Wil je dat niet? Log dan in; meer hoef je niet te doen:',
      `${o.appUrl}${routes.myPages}`,
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}

/** To the new owner (a proven account) when the team handed a page over. */
export function handedOverMail(o: {
  to: string;
  memorialName: string;
  memorialId: string;
  appUrl: string;
}): Mail {
  const page = mailName(o.memorialName)
    ? `de gedenkpagina van ${mailName(o.memorialName)}`
    : 'een gedenkpagina';
  return {
    to: o.to,
    subject: `Je bent nu eigenaar van ${page}`,
    text: [
      'Hallo,',
      '',
      `Op verzoek van de familie heeft ons team je eigenaar gemaakt van ${page}.`,
      '',
      `${o.appUrl}${routes.memorialManage(o.memorialId)}`,
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}
