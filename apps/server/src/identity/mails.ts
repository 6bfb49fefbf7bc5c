import type { Mail } from '../lib/mailer.ts';

const signature = ['', 'Met vriendelijke groet,', 'Het team van Aandenken'];

export function verifyEmailMail(to: string, name: string, link: string): Mail {
  return {
    to,
    subject: 'Bevestig je e-mailadres voor Aandenken',
    text: [
      `Beste ${name},`,
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
      `Beste ${name},`,
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
