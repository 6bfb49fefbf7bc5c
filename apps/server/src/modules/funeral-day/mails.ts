import { serviceKindLabels, type ServiceKind } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** The daily summary of new RSVPs, to the memorial's owners and editors. */
export function rsvpSummaryMail(o: {
  to: string;
  memorialName: string;
  kind: ServiceKind;
  date: string;
  newRsvps: { name: string; people: number }[];
  count: number;
  totalPeople: number;
  manageUrl: string;
}): Mail {
  const service = `${serviceKindLabels[o.kind].toLowerCase()} op ${dateNl(new Date(`${o.date}T12:00:00Z`))}`;
  const page = mailName(o.memorialName) ? ` van ${mailName(o.memorialName)}` : '';
  // Visitors' names as they wrote them, one line each; a name that looks like a link is not shown.
  const lines = o.newRsvps.map(
    (r) =>
      `- ${mailName(r.name) ?? '(naam niet getoond)'}: ${r.people} ${r.people === 1 ? 'persoon' : 'personen'}`,
  );
  return {
    to: o.to,
    subject: `Nieuwe aanmeldingen voor de ${serviceKindLabels[o.kind].toLowerCase()}${page}`,
    text: [
      'Hallo,',
      '',
      `Sinds het vorige overzicht ${o.newRsvps.length === 1 ? 'is er 1 aanmelding' : `zijn er ${o.newRsvps.length} aanmeldingen`} binnengekomen voor de ${service}:`,
      ...lines,
      '',
      `In totaal: ${o.count} ${o.count === 1 ? 'aanmelding' : 'aanmeldingen'}, ${o.totalPeople} ${o.totalPeople === 1 ? 'persoon' : 'personen'}.`,
      '',
      'De hele lijst (en de export als CSV) staat bij het beheer van de gedenkpagina:',
      o.manageUrl,
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}
