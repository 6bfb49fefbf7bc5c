import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

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
  const who = mailName(o.actorName) ?? 'Een eigenaar';
  const until = dateNl(o.removeAfter);
  return buildMail({
    to: o.to,
    name: o.ownerName,
    subject: `De gedenkpagina voor ${subject} is verwijderd`,
    body: [
      `${who} heeft de gedenkpagina voor ${subject} verwijderd. Bezoekers en leden zien de pagina niet meer.`,
      `Tot ${until} kan elke eigenaar de pagina terugzetten, met alles erop. Dat doe je onder ‘Verwijderde pagina’s’ op Mijn Pagina’s:`,
      { link: o.restoreUrl, label: 'Verwijderde pagina’s bekijken' },
      `Na ${until} verwijderen we de pagina definitief, met alle foto’s, video’s, herinneringen en kaarsjes. Wil je iets bewaren, zet de pagina dan terug en maak een export (tabblad Bewaren).`,
    ],
  });
}
