import type { Mail } from '../lib/mailer.ts';
import { greeting } from '../lib/mail-format.ts';

// These go to an address that has not proven itself (registration takes any address; anyone may ask for a
// reset of any account): the account's name, which whoever registered typed, appears only through
// `greeting`, as one line without links.
const signature = ['', 'Met vriendelijke groet,', 'Het team van Aandenken'];

export function verifyEmailMail(to: string, name: string, link: string): Mail {
  return {
    to,
    subject: 'Bevestig je e-mailadres voor Aandenken',
    text: [
      greeting(name),
      '',
      'Welkom bij Aandenken. Bevestig je e-mailadres via deze link en kies daar je wachtwoord:',
      '',
      link,
      '',
      'De link is 24 uur geldig. Heb je geen account aangemaakt? Dan kun je deze e-mail negeren.',
      ...signature,
    ].join('\n'),
  };
}

export function resetPasswordMail(to: string, name: string, link: string, minutes: number): Mail {
  return {
    to,
    subject: 'Nieuw wachtwoord instellen voor Aandenken',
    text: [
      greeting(name),
      '',
      'Je hebt gevraagd om een nieuw wachtwoord voor je account bij Aandenken. Stel het in via deze link:',
      '',
      link,
      '',
      `De link werkt één keer en is ${minutes} minuten geldig. Heb je dit niet gevraagd? Dan kun je deze e-mail negeren; je wachtwoord blijft dan hetzelfde.`,
      ...signature,
    ].join('\n'),
  };
}
