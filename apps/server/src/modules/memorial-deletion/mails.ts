import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml, greeting, mailName } from '../../lib/mail-format.ts';

/** To each owner when a memorial is deleted: who did it, until when it can be restored, and where. */
export function deletedMail(o: {
  to: string;
  ownerName: string | null;
  actorName: string | null;
  subjectName: string;
  removeAfter: Date;
  restoreUrl: string;
}): Mail {
  const subject = mailName(o.subjectName) ?? 'je dierbare';
  const hello = greeting(o.ownerName);
  const who = mailName(o.actorName) ?? 'Een eigenaar';
  const until = dateNl(o.removeAfter);
  const lines = [
    hello,
    '',
    `${who} heeft de gedenkpagina voor ${subject} verwijderd. Bezoekers en leden zien de pagina niet meer.`,
    '',
    `Tot ${until} kan elke eigenaar de pagina terugzetten, met alles erop. Dat doe je onder "Verwijderde pagina's" op Mijn Pagina's:`,
    o.restoreUrl,
    '',
    `Na ${until} verwijderen we de pagina definitief, met alle foto's, video's, herinneringen en kaarsjes. Wil je iets bewaren, zet de pagina dan terug en maak een export (tabblad Bewaren).`,
    '',
    'Hartelijke groet,',
    'Aandenken',
  ];
  return {
    to: o.to,
    subject: `De gedenkpagina voor ${subject} is verwijderd`,
    text: lines.join('\n'),
    html: [
      `<p>${escapeHtml(hello)}</p>`,
      `<p>${escapeHtml(lines[2]!)}</p>`,
      `<p>${escapeHtml(lines[4]!)}<br><a href="${escapeHtml(o.restoreUrl)}">Verwijderde pagina's bekijken</a></p>`,
      `<p>${escapeHtml(lines[7]!)}</p>`,
      '<p>Hartelijke groet,<br>Aandenken</p>',
    ].join(''),
  };
}
