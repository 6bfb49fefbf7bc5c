import { companyTypeLabels, type CompanyResponse } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';

export function teamMail(c: CompanyResponse, to: string[]): Mail {
  const lines = [
    `Er is een nieuwe partneraanvraag binnengekomen van ${c.companyName}.`,
    '',
    `Soort bedrijf: ${companyTypeLabels[c.companyType]}`,
    ...(c.serviceDescription ? [`Diensten: ${c.serviceDescription}`] : []),
    `Contactpersoon: ${c.firstName} ${c.lastName}`,
    `Adres: ${c.streetName} ${c.houseNumber}, ${c.postalCode}`,
    `Telefoon: ${c.phoneNumber}`,
    `E-mail: ${c.email}`,
    ...(c.additionalInfo ? ['', 'Aanvullende informatie:', c.additionalInfo] : []),
    '',
    `Aanvraagnummer: ${c.id}`,
  ];
  return {
    to,
    subject: `Nieuwe partneraanvraag: ${c.companyName}`,
    text: lines.join('\n'),
    replyTo: c.email,
  };
}

export function applicantMail(c: CompanyResponse): Mail {
  return {
    to: c.email,
    subject: 'We hebben je partneraanvraag ontvangen',
    text: [
      `Beste ${c.firstName} ${c.lastName},`,
      '',
      `Bedankt voor de aanvraag van ${c.companyName} om partner van Aandenken te worden.`,
      'Ons team beoordeelt je aanvraag en neemt binnen 24-48 uur contact met je op.',
      '',
      'Na goedkeuring richt je je profiel, prijzen en werkgebied in en kun je gedenkpagina’s aanmaken.',
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}
