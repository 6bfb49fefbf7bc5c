import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** To whoever asked for the presentation's video: the signed link to the MP4, until when it works. */
export function videoMail(o: {
  to: string;
  name: string | null;
  subjectName: string;
  url: string;
  expiresAt: Date;
}): Mail {
  const subject = mailName(o.subjectName) ?? 'je dierbare';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `De video voor ${subject} staat klaar`,
    body: [
      `De video van de presentatie voor ${subject} is klaar. Je kunt hem hier downloaden:`,
      { link: o.url, label: 'Download de video (MP4)' },
      `Deze link werkt tot ${dateNl(o.expiresAt)}; daarna kun je de video opnieuw laten maken.\nDeel deze link alleen met wie de video mag hebben.`,
    ],
  });
}
