import type { Mail } from '../lib/mailer.ts';
import { buildMail } from '../lib/mail-builder.ts';

// These go to an address that has not proven itself (registration takes any address; anyone may ask for a
// reset of any account): the account's name, which whoever registered typed, appears only through
// the builder's greeting, as one line without links.

export function verifyEmailMail(to: string, name: string, link: string): Mail {
  return buildMail({
    to,
    name,
    subject: 'Bevestig je e-mailadres voor Aandenken',
    body: [
      'Welkom bij Aandenken. Bevestig je e-mailadres met één klik op deze link:',
      { link, label: 'E-mailadres bevestigen' },
      'De link is 24 uur geldig. Heb je geen account aangemaakt? Dan kun je deze e-mail negeren.',
    ],
  });
}

export function resetPasswordMail(to: string, name: string, link: string, minutes: number): Mail {
  return buildMail({
    to,
    name,
    subject: 'Nieuw wachtwoord instellen voor Aandenken',
    body: [
      'Je hebt gevraagd om een nieuw wachtwoord voor je account bij Aandenken. Stel het in via deze link:',
      { link, label: 'Nieuw wachtwoord instellen' },
      `De link werkt één keer en is ${minutes} minuten geldig. Heb je dit niet gevraagd? Dan kun je deze e-mail negeren; je wachtwoord blijft dan hetzelfde.`,
    ],
  });
}
