import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** To whoever asked for an export: the signed link to the zip, until when it works. */
export function exportMail(o: {
  to: string;
  name: string | null;
  /** The person the page is about; null for the download of one's own data. */
  subjectName: string | null;
  url: string;
  expiresAt: Date;
}): Mail {
  const page = o.subjectName === null ? null : (mailName(o.subjectName) ?? 'je dierbare');
  return buildMail({
    to: o.to,
    name: o.name,
    subject: page
      ? `De export van de gedenkpagina voor ${page} staat klaar`
      : 'Je gegevens staan klaar om te downloaden',
    body: [
      `Je hebt ${page ? `de export van de gedenkpagina voor ${page}` : 'de download met al je gegevens'} aangevraagd. Het zip-bestand staat klaar:`,
      { link: o.url, label: 'Download het zip-bestand' },
      `Deze link werkt tot ${dateNl(o.expiresAt)}; daarna kun je een nieuwe export aanvragen.\nDeel deze link niet: wie hem heeft, kan het bestand downloaden.`,
    ],
  });
}
