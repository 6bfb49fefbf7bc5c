import { serviceKindLabels, type ServiceKind } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** The daily summary of new RSVPs, to the memorial's owners and editors. */
export function rsvpSummaryMail(o: {
  to: string;
  /** The owner's or editor's own name (their account's). */
  name: string | null;
  memorialName: string;
  kind: ServiceKind;
  date: string;
  newRsvps: { name: string; people: number }[];
  count: number;
  totalPeople: number;
  manageUrl: string;
}): Mail {
  const kind = serviceKindLabels[o.kind].toLowerCase();
  const service = `${kind} op ${dateNl(new Date(`${o.date}T12:00:00Z`))}`;
  const page = mailName(o.memorialName) ? ` van ${mailName(o.memorialName)}` : '';
  const people = (n: number) => `${n} ${n === 1 ? 'persoon' : 'personen'}`;
  const n = o.newRsvps.length;
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `Nieuwe aanmeldingen voor de ${kind}${page}`,
    body: [
      `Sinds het vorige overzicht ${n === 1 ? 'is er 1 aanmelding' : `zijn er ${n} aanmeldingen`} binnengekomen voor de ${service}:`,
      // Visitors' names as they wrote them, one line each; a name that looks like a link is not shown.
      { list: o.newRsvps.map((r) => `${mailName(r.name) ?? '(naam niet getoond)'}: ${people(r.people)}`) },
      `In totaal: ${o.count} ${o.count === 1 ? 'aanmelding' : 'aanmeldingen'}, ${people(o.totalPeople)}.`,
      'De hele lijst (en de export als CSV) staat bij het beheer van de gedenkpagina:',
      { link: o.manageUrl, label: 'Naar de aanmeldingen' },
    ],
  });
}
