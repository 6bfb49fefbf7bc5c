/**
 * Every mail through the one builder (lib/mail-builder.ts): its subject, its greeting, the sentence it is
 * about, the sign-off and the footer once, the HTML part made from the same blocks as the text part, and
 * the names in it escaped in the HTML. No server: the templates are pure functions. The suites that send
 * mail through the SMTP sink prove that each one is sent on its occasion.
 */
import { describe, expect, it } from 'vitest';
import type { CompanyResponse } from '@aandenken/contract';
import type { Mail } from '../src/lib/mailer.ts';
import { buildMail, FOOTER_LINE, SIGN_OFF } from '../src/lib/mail-builder.ts';
import { verifyEmailMail, resetPasswordMail } from '../src/identity/mails.ts';
import { applicantMail, approvalMail, rejectionMail, teamMail } from '../src/modules/companies/mails.ts';
import { colleagueInviteMail, handoverMail } from '../src/modules/companies/partner-mails.ts';
import { rsvpSummaryMail } from '../src/modules/funeral-day/mails.ts';
import {
  anniversaryMail,
  confirmSubscriptionMail,
  futureMessageMail,
  remembranceMail,
} from '../src/modules/future-mail/mails.ts';
import { accessMail, budgetExceededMail, memorialFailuresMail } from '../src/modules/guests/mails.ts';
import { inviteMail } from '../src/modules/invites/mails.ts';
import { deletedMail } from '../src/modules/memorial-deletion/mails.ts';
import { companyInvoiceMail, invoiceMail } from '../src/modules/payments/mails.ts';
import type { InvoiceRow } from '../src/modules/payments/invoices.ts';
import { planNoticeMail } from '../src/modules/plans/mails.ts';
import { handedOverMail, inactivityReminderMail } from '../src/modules/successors/mails.ts';
import { ownersHiddenMail, ownersReportMail, teamReportMail } from '../src/modules/takedown/mails.ts';
import { exportMail } from '../src/modules/exports/mails.ts';
import { videoMail } from '../src/modules/presentation/mails.ts';
import { bookReadyMail } from '../src/modules/printed-book/mails.ts';
import { contactTeamMail } from '../src/modules/contact/mails.ts';
import { ownershipInviteMail } from '../src/shared/succession.ts';
import { visitorMemoryConfirmMail } from '../src/modules/memories/visitor-mail.ts';

/** A name with markup in it: one line without links, so mailName lets it through, and HTML must escape it. */
const TRICKY = 'Anna <b>& "Co"</b>';
const TRICKY_HTML = 'Anna &lt;b&gt;&amp; &quot;Co&quot;&lt;/b&gt;';
const MEMORIAL = 'Johanna <i>de Vries</i>';
type Names = { person: string; page: string; company: string };
const URL = 'https://app.aandenken.test/pad?a=1&b=2';
const DAY = new Date('2026-12-01T12:00:00Z');
const links = { pageUrl: `${URL}&uit=1`, oneClickUrl: 'https://app.aandenken.test/core/uit' };
const company = (n: Names): CompanyResponse => ({
  id: '7c1a4a3e-8f0e-4c55-9b0e-1f7f3b7d2a10',
  status: 'pending',
  companyType: 'FuneralDirector',
  companyName: `Uitvaartzorg ${n.company}`,
  firstName: n.person.split(' ')[0]!,
  lastName: n.person.split(' ').slice(1).join(' '),
  streetName: 'Lindelaan',
  houseNumber: '12a',
  postalCode: '1234 AB',
  phoneNumber: '020 123 4567',
  email: 'anna@delinde.nl',
  serviceDescription: 'Uitvaarten <script>',
  additionalInfo: null,
  createdAt: DAY.toISOString(),
});
const invoice = (n: Names, kind: 'invoice' | 'credit'): InvoiceRow => ({
  id: 'i1',
  number: 12,
  kind,
  payment_id: 'p1',
  memorial_id: null,
  issued_at: DAY,
  description: kind === 'credit' ? 'Creditering: Premium' : 'Premium',
  amount_cents: kind === 'credit' ? -19900 : 19900,
  vat_cents: kind === 'credit' ? -3454 : 3454,
  vat_percent: 21,
  buyer_name: n.person,
  buyer_address: 'Lindelaan 12a',
  buyer_postal_code: '1234 AB',
  buyer_city: 'Utrecht',
  lines: null,
});

/** What a reader of the HTML part sees, as text. */
const htmlText = (html: string) =>
  html
    .replace(/<title>.*<\/title>/s, '')
    .replace(/\n/g, '')
    .replace(/<br>/g, '\n')
    .replace(/<li[^>]*>/g, '- ')
    .replace(/<\/li>/g, '\n')
    .replace(/<\/p>/g, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

type Case = {
  /** When it is sent and to whom, for docs/mails.md. */
  when: string;
  mail: Mail;
  subject: string | RegExp;
  /** The first line; null for mails without our greeting (the team's, a family's letter). */
  greeting: string | null;
  key: string;
  /** A line the footer holds besides our name. */
  footer?: string;
  /** Mails to the team, or a family's letter, carry no sign-off. */
  signOff?: boolean;
};

/** Every mail, made with these names (tricky ones for the tests, plain ones for docs/mails.md). */
const makeCases = (n: Names): Record<string, Case> => ({
  verifyEmail: {
    when: "After registering: to the new account's address (identity/mails.ts).",
    mail: verifyEmailMail('a@example.nl', n.person, URL),
    subject: 'Bevestig je e-mailadres voor Aandenken',
    greeting: `Beste ${n.person},`,
    key: 'Bevestig je e-mailadres met één klik op deze link:',
  },
  resetPassword: {
    when: "When someone asks for a new password: to the account's address (identity/mails.ts).",
    mail: resetPasswordMail('a@example.nl', n.person, URL, 30),
    subject: 'Nieuw wachtwoord instellen voor Aandenken',
    greeting: `Beste ${n.person},`,
    key: 'De link werkt één keer en is 30 minuten geldig.',
  },
  partnerTeam: {
    when: 'A partner application came in: to the team (ADMIN_EMAILS), reply-to the applicant (companies/mails.ts).',
    mail: teamMail(company(n), ['team@aandenken.test']),
    subject: `Nieuwe partneraanvraag: Uitvaartzorg ${n.company}`,
    greeting: null,
    signOff: false,
    key: 'Diensten: Uitvaarten <script>',
  },
  partnerApplicant: {
    when: 'A partner application came in: to the address in the form, not yet proven (companies/mails.ts).',
    mail: applicantMail(company(n)),
    subject: 'We hebben je partneraanvraag ontvangen',
    greeting: `Beste ${n.person},`,
    key: 'neemt binnen 24-48 uur contact met je op',
  },
  partnerApproval: {
    when: 'The team approved an application: to the applicant (companies/mails.ts).',
    mail: approvalMail(company(n), URL),
    subject: 'Je partneraanvraag is goedgekeurd',
    greeting: `Beste ${n.person},`,
    key: 'Log in of maak een account aan met dit e-mailadres (anna@delinde.nl)',
  },
  partnerRejection: {
    when: 'The team turned an application down, with its reason: to the applicant (companies/mails.ts).',
    mail: rejectionMail(company(n), 'Geen uitvaartonderneming <ok>'),
    subject: 'Over je partneraanvraag',
    greeting: `Beste ${n.person},`,
    key: 'De reden:\nGeen uitvaartonderneming <ok>',
  },
  colleagueInvite: {
    when: "A partner invites a colleague: to the colleague's address (companies/partner-mails.ts). No name is asked, so 'Hallo,'.",
    mail: colleagueInviteMail({
      to: 'b@example.nl',
      companyName: n.company,
      inviterName: 'Piet',
      partnerUrl: URL,
      expiresAt: DAY,
    }),
    subject: `Uitnodiging: collega bij ${n.company}`,
    greeting: 'Hallo,',
    key: `Piet nodigt je uit om als collega het bedrijf ${n.company} te beheren`,
  },
  handover: {
    when: "A partner made a page for a family: to the family's address (companies/partner-mails.ts). The partner gives only the address, so 'Hallo,'.",
    mail: handoverMail({
      to: 'b@example.nl',
      companyName: n.company,
      memorialName: n.page,
      acceptUrl: URL,
      expiresAt: DAY,
    }),
    subject: `Neem de gedenkpagina van ${n.page} over`,
    greeting: 'Hallo,',
    key: `${n.company} heeft op Aandenken de gedenkpagina van ${n.page} voor je gemaakt.`,
  },
  rsvpSummary: {
    when: 'Once a day when new sign-ups for a funeral service came in: to each owner and editor (funeral-day/mails.ts).',
    mail: rsvpSummaryMail({
      to: 'a@example.nl',
      name: n.person,
      memorialName: n.page,
      kind: 'uitvaart',
      date: '2026-12-04',
      newRsvps: [
        { name: 'Kees <3', people: 2 },
        { name: 'www.evil.example', people: 1 },
      ],
      count: 5,
      totalPeople: 9,
      manageUrl: URL,
    }),
    subject: `Nieuwe aanmeldingen voor de uitvaart van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: '- Kees <3: 2 personen\n- (naam niet getoond): 1 persoon',
  },
  futureMessage: {
    when: "A family's future message on its moment: to the members and confirmed sign-ups (future-mail/mails.ts). The family's letter, without our greeting or sign-off.",
    mail: futureMessageMail({
      to: 'a@example.nl',
      memorialName: n.page,
      subject: 'Voor je 18e verjaardag',
      body: 'Lieve Sam,\n\nWe zijn trots op je <3',
      pageUrl: URL,
      links,
    }),
    subject: 'Voor je 18e verjaardag',
    greeting: null,
    signOff: false,
    key: 'Lieve Sam,\n\nWe zijn trots op je <3',
    footer: `Je krijgt deze e-mail omdat je verbonden bent met de gedenkpagina van ${n.page}`,
  },
  anniversary: {
    when: 'On the birthday or the day of death: to confirmed sign-ups for it (future-mail/mails.ts). By name when an account with that address names its owner.',
    mail: anniversaryMail({
      to: 'a@example.nl',
      name: n.person,
      memorialName: n.page,
      kind: 'deathday',
      date: '2024-12-01',
      today: '2026-12-01',
      pageUrl: URL,
      links,
    }),
    subject: `Vandaag is het 2 jaar geleden dat ${n.page} overleed`,
    greeting: `Beste ${n.person},`,
    key: `Vandaag, 2 jaar na 1 december 2024, denken we aan ${n.page}.`,
    footer: 'om een herinnering op de sterfdag vroeg',
  },
  remembrance: {
    when: "On Allerzielen, Wereldlichtjesdag (a child's page) or a planned kaarsjesmoment: to confirmed sign-ups (future-mail/mails.ts).",
    mail: remembranceMail({
      to: 'a@example.nl',
      name: null,
      memorialName: n.page,
      occasion: 'kaarsjesmoment',
      time: '20:00',
      pageUrl: URL,
      links,
    }),
    subject: `Vandaag om 20:00: kaarsjesmoment voor ${n.page}`,
    greeting: 'Hallo,',
    key: 'samen een kaarsje aan te steken',
    footer: 'om een herinnering op herdenkingsdagen vroeg',
  },
  confirmSubscription: {
    when: "Someone signs an address up for mails from a page: to that address, double opt-in (future-mail/mails.ts). Whoever filled in the form may not own the address, so 'Hallo,'.",
    mail: confirmSubscriptionMail({
      to: 'a@example.nl',
      memorialName: n.page,
      kinds: ['Berichten van de familie', 'Verjaardag'],
      confirmUrl: URL,
      days: 7,
    }),
    subject: `Bevestig je aanmelding voor de gedenkpagina van ${n.page}`,
    greeting: 'Hallo,',
    key: '- Berichten van de familie\n- Verjaardag',
  },
  access: {
    when: 'An owner or editor mails the access code: to the address they typed (guests/mails.ts).',
    mail: accessMail({
      to: 'a@example.nl',
      recipientName: n.person,
      senderName: 'Piet',
      memorialName: n.page,
      accessCode: '9330 7666',
      linkUrl: URL,
      formUrl: `${URL}&code=1`,
      linkExpiresAt: DAY,
    }),
    subject: `Toegang tot de gedenkpagina van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'vul deze toegangscode in: 9330 7666',
  },
  codeBudget: {
    when: 'Too many wrong access codes across all pages in an hour: to the team, at most once an hour (guests/mails.ts).',
    mail: budgetExceededMail({ to: ['team@aandenken.test'], failures: 500, budget: 500 }),
    subject: 'Veel onjuiste toegangscodes: bezoekers krijgen een rekenpuzzel',
    greeting: null,
    signOff: false,
    key: 'In het afgelopen uur zijn er 500 of meer onjuiste toegangscodes ingevuld',
  },
  codeFailures: {
    when: 'Many wrong codes for one page: to its owners, once (guests/mails.ts).',
    mail: memorialFailuresMail({
      to: 'a@example.nl',
      ownerName: n.person,
      memorialName: n.page,
      failures: 25,
      manageUrl: URL,
    }),
    subject: `Veel onjuiste toegangscodes voor de gedenkpagina van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'zijn inmiddels 25 onjuiste toegangscodes ingevuld',
  },
  invite: {
    when: "An invitation to a page: to the invitee's address (invites/mails.ts).",
    mail: inviteMail({
      to: 'a@example.nl',
      inviteeName: n.person,
      inviterName: 'Piet',
      memorialName: n.page,
      role: 'editor',
      acceptUrl: URL,
      guestUrl: `${URL}&gast=1`,
      expiresAt: DAY,
    }),
    subject: `Piet nodigt je uit voor de gedenkpagina van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'als redacteur: je beheert de pagina mee en keurt herinneringen goed.',
  },
  deleted: {
    when: 'A page was deleted: to each owner (memorial-deletion/mails.ts).',
    mail: deletedMail({
      to: 'a@example.nl',
      ownerName: n.person,
      actorName: 'Piet',
      subjectName: n.page,
      removeAfter: DAY,
      restoreUrl: URL,
    }),
    subject: `De gedenkpagina voor ${n.page} is verwijderd`,
    greeting: `Beste ${n.person},`,
    key: 'Tot 1 december 2026 kan elke eigenaar de pagina terugzetten',
  },
  invoice: {
    when: "A family's payment went through: to the one who paid, by the name they gave for the invoice (payments/mails.ts).",
    mail: invoiceMail({ to: 'a@example.nl', invoice: invoice(n, 'invoice'), memorialName: n.page, url: URL }),
    subject: 'Je factuur AK-000012 van Aandenken',
    greeting: `Beste ${n.person},`,
    key: 'Factuur AK-000012: € 199,00 (waarvan € 34,54 btw).',
  },
  creditInvoice: {
    when: "A family's payment was refunded: to the one who paid (payments/mails.ts).",
    mail: invoiceMail({ to: 'a@example.nl', invoice: invoice(n, 'credit'), memorialName: n.page, url: URL }),
    subject: 'Je creditfactuur AK-000012 van Aandenken',
    greeting: `Beste ${n.person},`,
    key: `We hebben € 199,00 teruggestort voor Premium van de gedenkpagina voor ${n.page}.`,
  },
  companyInvoice: {
    when: "A company's payment went through or was refunded: to the user who paid (payments/mails.ts). The invoice names the company; the mail greets the person who paid by their account's name (here none is known, so 'Hallo,').",
    mail: companyInvoiceMail({
      to: 'a@example.nl',
      invoice: invoice(n, 'invoice'),
      companyName: n.company,
      url: URL,
    }),
    subject: 'Je factuur AK-000012 van Aandenken',
    greeting: 'Hallo,',
    key: `Dank je wel voor de betaling van ${n.company} voor: Premium.`,
  },
  planNotice: {
    when: 'The trial or paid year ends in 7 days, tomorrow, or has ended: to each owner (plans/mails.ts).',
    mail: planNoticeMail({
      to: 'a@example.nl',
      ownerName: n.person,
      memorialName: n.page,
      kind: 'ends_in_7',
      plan: 'trial',
      endsAt: DAY,
      payUrl: URL,
    }),
    subject: `Over 7 dagen eindigt de proefperiode van de gedenkpagina voor ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'Kies voor die datum Basis (50 euro per jaar) of Premium (199 euro, eenmalig)',
  },
  inactivity: {
    when: 'An owner with a successor has been silent for a year: to that owner, twice (successors/mails.ts).',
    mail: inactivityReminderMail({
      to: 'a@example.nl',
      name: n.person,
      memorialNames: [n.page],
      reminder: 2,
      handOverOn: DAY,
      appUrl: 'https://app.aandenken.test',
    }),
    subject: 'Tweede herinnering: je gedenkpagina gaat binnenkort naar je opvolger',
    greeting: `Beste ${n.person},`,
    key: `- de gedenkpagina van ${n.page}`,
  },
  handedOver: {
    when: 'The team handed a page over to an existing account: to its new owner (successors/mails.ts).',
    mail: handedOverMail({
      to: 'a@example.nl',
      name: n.person,
      memorialName: n.page,
      memorialId: 'm1',
      appUrl: 'https://app.aandenken.test',
    }),
    subject: `Je bent nu eigenaar van de gedenkpagina van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'Op verzoek van de familie heeft ons team je eigenaar gemaakt',
  },
  takedownOwners: {
    when: 'Someone reported a memory or photo: to each owner of the page (takedown/mails.ts).',
    mail: ownersReportMail({
      to: 'a@example.nl',
      name: n.person,
      memorialName: n.page,
      memorialId: 'm1',
      itemType: 'memory',
      reason: 'privacy',
      appUrl: 'https://app.aandenken.test',
    }),
    subject: `Melding op de gedenkpagina van ${n.page}`,
    greeting: `Beste ${n.person},`,
    key: 'De gekozen reden: Het schendt iemands privacy.',
  },
  takedownTeam: {
    when: 'Someone reported a memory or photo: to the team, with everything the reporter gave (takedown/mails.ts).',
    mail: teamReportMail({
      to: ['team@aandenken.test'],
      memorialName: n.page,
      itemType: 'media',
      itemId: 'x1',
      reason: 'offensive',
      details: 'Zie <dit>',
      appUrl: 'https://app.aandenken.test',
    }),
    subject: `Nieuwe melding: een foto of video op de pagina van ${n.page}`,
    greeting: null,
    signOff: false,
    key: 'Toelichting:\nZie <dit>',
  },
  takedownHidden: {
    when: 'The team hid something after a report: to each owner (takedown/mails.ts).',
    mail: ownersHiddenMail({
      to: 'a@example.nl',
      name: null,
      memorialName: n.page,
      itemType: 'memory',
      reason: 'Bevat een adres <x>',
    }),
    subject: `Ons team heeft iets verborgen op de gedenkpagina van ${n.page}`,
    greeting: 'Hallo,',
    key: 'De reden:\nBevat een adres <x>',
  },
  export: {
    when: "A page's export is ready: to the owner who asked (exports/mails.ts).",
    mail: exportMail({ to: 'a@example.nl', name: n.person, subjectName: n.page, url: URL, expiresAt: DAY }),
    subject: `De export van de gedenkpagina voor ${n.page} staat klaar`,
    greeting: `Beste ${n.person},`,
    key: 'Deze link werkt tot 1 december 2026; daarna kun je een nieuwe export aanvragen.',
  },
  ownDataExport: {
    when: "The download of one's own data is ready: to that person (exports/mails.ts).",
    mail: exportMail({ to: 'a@example.nl', name: null, subjectName: null, url: URL, expiresAt: DAY }),
    subject: 'Je gegevens staan klaar om te downloaden',
    greeting: 'Hallo,',
    key: 'Je hebt de download met al je gegevens aangevraagd.',
  },
  video: {
    when: "The presentation's video is ready: to whoever asked (presentation/mails.ts).",
    mail: videoMail({ to: 'a@example.nl', name: n.person, subjectName: n.page, url: URL, expiresAt: DAY }),
    subject: `De video voor ${n.page} staat klaar`,
    greeting: `Beste ${n.person},`,
    key: `De video van de presentatie voor ${n.page} is klaar.`,
  },
  visitorMemory: {
    when: "A visitor left a memory on a public page: to the address they gave, to confirm it (memories/visitor-mail.ts). The address is not proven, so nothing they typed is in it, not even their name: 'Hallo,'.",
    mail: visitorMemoryConfirmMail({ to: 'a@example.nl', memorialName: n.page, confirmUrl: URL }),
    subject: `Bevestig je herinnering voor ${n.page}`,
    greeting: 'Hallo,',
    key: 'Daarna bekijkt de familie je herinnering; zodra zij die goedkeurt, staat ze op de pagina.',
  },
  ownershipInvite: {
    when: "A page goes to an address without a proven account (the named successor, or the team's hand-over): to that address (shared/succession.ts). No account names it, so 'Hallo,'.",
    mail: ownershipInviteMail({
      to: 'a@example.nl',
      memorialName: n.page,
      acceptUrl: URL,
      expiresAt: DAY,
      reason: 'inactive',
    }),
    subject: `Je wordt eigenaar van de gedenkpagina van ${n.page}`,
    greeting: 'Hallo,',
    key: `Je bent aangewezen als opvolger van de beheerder van de gedenkpagina van ${n.page}.`,
  },
  contact: {
    when: 'A message from the contact form: to the team, reply-to the sender (contact/mails.ts).',
    mail: contactTeamMail(
      {
        name: n.person,
        email: 'a@example.nl',
        subject: 'general',
        message: 'Een vraag <over> de pagina.\n\nGroet, Anna',
      },
      ['team@aandenken.test'],
    ),
    subject: 'Contactformulier: Algemene vraag',
    greeting: null,
    signOff: false,
    key: 'Een vraag <over> de pagina.',
  },
  book: {
    when: 'The printed book is ready: to whoever asked (printed-book/mails.ts).',
    mail: bookReadyMail({ to: 'a@example.nl', name: n.person, subject: n.page, url: URL, pages: 48 }),
    subject: `Het boek over ${n.page} staat klaar`,
    greeting: `Beste ${n.person},`,
    key: `Het boek over ${n.page} staat klaar (48 pagina’s, A5).`,
  },
});
const cases = makeCases({ person: TRICKY, page: MEMORIAL, company: TRICKY });

describe('every mail, through the builder', () => {
  it.each(Object.entries(cases))('%s', (_, c) => {
    const { mail } = c;
    const html = mail.html!;
    const shown = htmlText(html);
    if (typeof c.subject === 'string') expect(mail.subject).toBe(c.subject);
    else expect(mail.subject).toMatch(c.subject);

    // The greeting first, in both parts; never a bare 'Beste,'.
    if (c.greeting) {
      expect(mail.text.split('\n')[0]).toBe(c.greeting);
      expect(shown.trimStart().startsWith(c.greeting)).toBe(true);
    }
    expect(mail.text).not.toMatch(/^Beste,/m);

    expect(mail.text).toContain(c.key);
    expect(shown).toContain(c.key);

    // The sign-off and the footer once each, in both parts; the footer after the sign-off.
    const signOff = SIGN_OFF.join('\n');
    expect(count(mail.text, signOff)).toBe(c.signOff === false ? 0 : 1);
    expect(count(shown, signOff)).toBe(c.signOff === false ? 0 : 1);
    const footer =
      c.signOff === false && c.greeting === null && !c.footer ? /aan het team\.\n$/ : FOOTER_LINE;
    if (typeof footer === 'string') {
      expect(count(mail.text, footer)).toBe(1);
      expect(count(shown, footer)).toBe(1);
      expect(mail.text.indexOf(footer)).toBeGreaterThan(mail.text.indexOf('\n—\n'));
    } else expect(mail.text).toMatch(footer);
    if (c.footer) {
      expect(mail.text.split('\n—\n')[1]).toContain(c.footer);
      expect(shown).toContain(c.footer);
    }
    expect(mail.text).not.toMatch(/Hartelijke groet|Geachte| u | uw /);

    // One source: every paragraph of the text part is in the HTML part, and every address in the text
    // is a link there.
    for (const paragraph of mail.text.split('\n\n')) {
      const words = paragraph.split('\n').filter((l) => !/^https?:\/\//.test(l) && l !== '—');
      for (const line of words) expect(shown, line).toContain(line);
    }
    const urls = mail.text.match(/^https?:\/\/\S+$/gm) ?? [];
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(hrefs).toEqual(urls);

    // User text never becomes markup: the only tags are the layout's own.
    const tags = new Set([...html.matchAll(/<\/?([a-z]+)[\s>]/gi)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].filter((t) => !/^(html|head|meta|title|body|div|p|br|a|strong|ul|li)$/.test(t))).toEqual(
      [],
    );
  });

  it('escapes names and page names in the HTML part', () => {
    const html = cases.invite!.mail.html!;
    expect(html).toContain(TRICKY_HTML);
    expect(html).not.toContain(TRICKY);
    expect(html).toContain('Johanna &lt;i&gt;de Vries&lt;/i&gt;');
    expect(cases.partnerTeam!.mail.html).toContain('Uitvaarten &lt;script&gt;');
    expect(cases.access!.mail.html).toContain(`href="${URL.replace('&', '&amp;')}"`);
  });

  it('keeps the one-click unsubscribe headers and the reply-to', () => {
    for (const name of ['futureMessage', 'anniversary', 'remembrance'])
      expect(cases[name]!.mail.headers, name).toEqual({
        'List-Unsubscribe': '<https://app.aandenken.test/core/uit>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
    expect(cases.partnerTeam!.mail.replyTo).toBe('anna@delinde.nl');
  });

  it('greets by name only when the name is safe, and links only to web addresses', () => {
    const mail = (name: string | null) =>
      buildMail({ to: 'a@example.nl', name, subject: 'Test', body: ['Tekst.'] });
    expect(mail('Kees').text.startsWith('Beste Kees,\n')).toBe(true);
    expect(mail(null).text.startsWith('Hallo,\n')).toBe(true);
    expect(mail('Kijk op www.evil.example').text.startsWith('Hallo,\n')).toBe(true);
    expect(() =>
      buildMail({
        to: 'a@example.nl',
        name: null,
        subject: 'Test',
        body: [{ link: 'javascript:alert(1)', label: 'Klik' }],
      }),
    ).toThrow(/http/);
  });
});

describe('one way to write a mail', () => {
  it('no mail is written by hand: our sign-off lives in the builder only, and every template uses it', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const src = path.resolve(import.meta.dirname, '../src');
    const files = (await readdir(src, { recursive: true }))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => f.split(path.sep).join('/'));
    const offenders: string[] = [];
    for (const file of files) {
      if (file === 'lib/mail-builder.ts' || file.startsWith('lib/mail')) continue;
      const code = await readFile(path.join(src, file), 'utf8');
      if (/Met vriendelijke groet|Hartelijke groet|Het team van Aandenken'/.test(code)) offenders.push(file);
      // A file that makes a Mail makes it with buildMail (a Mail is only typed elsewhere).
      if (
        /\bMail\b.*from '.*lib\/mailer\.ts'/.test(code) &&
        /\btext:/.test(code) &&
        !/buildMail\(/.test(code)
      )
        offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});

describe('docs/mails.md', () => {
  /** Every mail as a person reads it, made by the templates themselves with plain sample names. */
  const doc = () => {
    const readable = makeCases({ person: 'Anna de Vries', page: 'Johanna de Vries', company: 'De Linde' });
    return [
      '# Mails',
      '',
      'Every mail the service sends, as its recipient reads the text part, with sample names and addresses.',
      'The HTML part says the same (it is made from the same blocks, `lib/mail-builder.ts`); addresses become',
      'links with a short label there. This file is written by the templates themselves: after changing a mail,',
      'run `WRITE_MAILS_DOC=1 npx vitest run --project server apps/server/test/mails.test.ts` and read the',
      'difference; the test fails while this file and the templates disagree. Rules for the words: `words.md`;',
      'why a small builder and no library: `decisions/021-mail-builder.md`.',
      '',
      ...Object.entries(readable).flatMap(([name, c]) => [
        `## ${c.mail.subject}`,
        '',
        `\`${name}\`: ${c.when}`,
        '',
        '```text',
        c.mail.text.trimEnd(),
        '```',
        '',
      ]),
    ].join('\n');
  };

  it('holds every mail as the templates write it', async () => {
    const { readFile, writeFile } = await import('node:fs/promises');
    const file = (await import('node:path')).resolve(import.meta.dirname, '../../../docs/mails.md');
    if (process.env.WRITE_MAILS_DOC) await writeFile(file, doc());
    expect(await readFile(file, 'utf8')).toBe(doc());
  });
});
