import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { mailName } from '../../lib/mail-format.ts';

/** To whoever asked for the book: it is ready, behind sign-in on the page's book screen. */
export function bookReadyMail(o: {
  to: string;
  name: string | null;
  subject: string;
  url: string;
  pages: number;
}): Mail {
  const subject = mailName(o.subject) ?? 'je dierbare';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `Het boek over ${subject} staat klaar`,
    body: [
      `Het boek over ${subject} staat klaar (${o.pages} pagina’s, A5). Je kunt het bekijken en downloaden op:`,
      { link: o.url, label: 'Open het boek' },
      'Log in met je account om het te openen.',
    ],
  });
}
