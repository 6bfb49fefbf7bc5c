import { companyTypeLabels, type CompanyResponse } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { mailName } from '../../lib/mail-format.ts';

export function teamMail(c: CompanyResponse, to: string[]): Mail {
  return buildMail({
    audience: 'team',
    to,
    subject: `Nieuwe partneraanvraag: ${c.companyName}`,
    replyTo: c.email,
    body: [
      `Er is een nieuwe partneraanvraag binnengekomen van ${c.companyName}.`,
      [
        `Soort bedrijf: ${companyTypeLabels[c.companyType]}`,
        ...(c.serviceDescription ? [`Diensten: ${c.serviceDescription}`] : []),
        `Contactpersoon: ${c.firstName} ${c.lastName}`,
        `Adres: ${c.streetName} ${c.houseNumber}, ${c.postalCode}`,
        `Telefoon: ${c.phoneNumber}`,
        `E-mail: ${c.email}`,
      ].join('\n'),
      ...(c.additionalInfo ? [`Aanvullende informatie:\n${c.additionalInfo}`] : []),
      `Aanvraagnummer: ${c.id}`,
    ],
  });
}

/**
 * To the address the form names, which has not proven itself (anyone can fill in anyone's address): only
 * our own words, and the applicant's name as one line without links (`mailName`). Nothing else they typed
 * (company name, description, additional information) is echoed; the team reads that in its own mail.
 */
export function applicantMail(c: CompanyResponse): Mail {
  return buildMail({
    to: c.email,
    name: mailName(`${c.firstName} ${c.lastName}`),
    subject: 'We hebben je partneraanvraag ontvangen',
    body: [
      'Bedankt voor je aanvraag om partner van Aandenken te worden.\nOns team beoordeelt je aanvraag en neemt binnen 24-48 uur contact met je op.',
      'Na goedkeuring richt je je profiel, prijzen en werkgebied in en kun je gedenkpagina’s aanmaken.',
      'Heb je geen partneraanvraag gedaan? Dan kun je deze e-mail negeren.',
    ],
  });
}

/**
 * The approval, to the applicant's address (not proven: only our words and the name through `mailName`).
 * The link opens the app's sign-in or registration with that address filled in; once the address is
 * verified, its account becomes the company's first partner user.
 */
export function approvalMail(c: CompanyResponse, partnerUrl: string): Mail {
  return buildMail({
    to: c.email,
    name: mailName(`${c.firstName} ${c.lastName}`),
    subject: 'Je partneraanvraag is goedgekeurd',
    body: [
      'Goed nieuws: je aanvraag om partner van Aandenken te worden is goedgekeurd.',
      `Log in of maak een account aan met dit e-mailadres (${c.email}) via de link hieronder. Zodra je e-mailadres is bevestigd, beheer je het bedrijf bij Aandenken.`,
      { link: partnerUrl, label: 'Naar het partnerportaal' },
    ],
  });
}

/** The rejection with the team's reason (the team's own words), to the applicant's address. */
export function rejectionMail(c: CompanyResponse, reason: string): Mail {
  return buildMail({
    to: c.email,
    name: mailName(`${c.firstName} ${c.lastName}`),
    subject: 'Over je partneraanvraag',
    body: [
      'Bedankt voor je aanvraag om partner van Aandenken te worden. We hebben je aanvraag beoordeeld en kunnen je op dit moment helaas geen partner maken.',
      `De reden:\n${reason}`,
      'Heb je vragen? Beantwoord deze e-mail niet, maar neem contact met ons op via het contactformulier op onze website.',
    ],
  });
}
