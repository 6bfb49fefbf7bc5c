import type { SubscriptionKind } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail, type Block } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

/** The way out every mail of this feature carries: a link in the text and the RFC 8058 headers. */
export interface UnsubscribeLinks {
  /** The web page that switches it off with one click (no session). */
  pageUrl: string;
  /** The API address mail programs POST `List-Unsubscribe=One-Click` to. */
  oneClickUrl: string;
}

const footer = (memorial: string, what: string, links: UnsubscribeLinks): Block[] => [
  `Je krijgt deze e-mail omdat je verbonden bent met de gedenkpagina ${memorial} en ${what}.`,
  'Wil je dit niet meer ontvangen? Met één klik zet je het uit (inloggen is niet nodig):',
  { link: links.pageUrl, label: 'Deze e-mails uitzetten' },
];
const headers = (links: UnsubscribeLinks) => ({
  'List-Unsubscribe': `<${links.oneClickUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});
const pageOf = (name: string) => (mailName(name) ? `van ${mailName(name)}` : 'op Aandenken');

/** A future message as the family wrote it, on its moment: their letter, without our greeting or sign-off. */
export function futureMessageMail(o: {
  to: string;
  memorialName: string;
  subject: string;
  body: string;
  pageUrl: string;
  links: UnsubscribeLinks;
}): Mail {
  return buildMail({
    audience: 'letter',
    to: o.to,
    subject: o.subject,
    body: [...o.body.split(/\n{2,}/), 'De gedenkpagina:', { link: o.pageUrl, label: 'Naar de gedenkpagina' }],
    footer: footer(pageOf(o.memorialName), 'berichten van de familie wilde ontvangen', o.links),
    headers: headers(o.links),
  });
}

/** On the birthday or the day of death, to whoever asked for it. */
export function anniversaryMail(o: {
  to: string;
  /** The recipient's own name, when an account with this address names them. */
  name: string | null;
  memorialName: string;
  kind: Extract<SubscriptionKind, 'birthday' | 'deathday'>;
  /** The birth or death date, `YYYY-MM-DD`. */
  date: string;
  /** Today in Amsterdam, `YYYY-MM-DD`. */
  today: string;
  pageUrl: string;
  links: UnsubscribeLinks;
}): Mail {
  const name = mailName(o.memorialName) ?? 'iemand die je dierbaar is';
  const years = Number(o.today.slice(0, 4)) - Number(o.date.slice(0, 4));
  const on = dateNl(new Date(`${o.date}T12:00:00Z`));
  const ago = years === 1 ? '1 jaar' : `${years} jaar`;
  const birthday = o.kind === 'birthday';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: birthday
      ? `Vandaag is de verjaardag van ${name}`
      : `Vandaag is het ${ago} geleden dat ${name} overleed`,
    body: [
      birthday
        ? `Vandaag zou ${name} ${years} jaar zijn geworden (geboren op ${on}).`
        : `Vandaag, ${ago} na ${on}, denken we aan ${name}.`,
      'Op de gedenkpagina kun je herinneringen lezen, een herinnering delen of een kaarsje aansteken:',
      { link: o.pageUrl, label: 'Naar de gedenkpagina' },
    ],
    footer: footer(
      pageOf(o.memorialName),
      birthday ? 'om een herinnering op de verjaardag vroeg' : 'om een herinnering op de sterfdag vroeg',
      o.links,
    ),
    headers: headers(o.links),
  });
}

/** The remembrance occasions a 'remembrance' sign-up gets a mail for (docs/funeral-day.md, 'Samen herdenken'). */
export type RemembranceOccasion = 'allerzielen' | 'wereldlichtjesdag' | 'kaarsjesmoment';

/** On Allerzielen, on Wereldlichtjesdag (a child's page) and on the day of a kaarsjesmoment, to whoever asked. */
export function remembranceMail(o: {
  to: string;
  /** The recipient's own name, when an account with this address names them. */
  name: string | null;
  memorialName: string;
  occasion: RemembranceOccasion;
  /** The kaarsjesmoment's start, `HH:MM` (Amsterdam). */
  time?: string;
  pageUrl: string;
  links: UnsubscribeLinks;
}): Mail {
  const name = mailName(o.memorialName) ?? 'iemand die je dierbaar is';
  const { subject, line } =
    o.occasion === 'allerzielen'
      ? {
          subject: `Allerzielen: we denken aan ${name}`,
          line: `Vandaag is het Allerzielen, de dag waarop we denken aan wie ons ontvallen zijn. Je kunt een kaarsje aansteken voor ${name}.`,
        }
      : o.occasion === 'wereldlichtjesdag'
        ? {
            subject: `Wereldlichtjesdag: een lichtje voor ${name}`,
            line: `Vanavond om 19:00 steken mensen over de hele wereld een kaarsje aan voor kinderen die overleden zijn. Je kunt dat ook doen voor ${name}.`,
          }
        : {
            subject: `Vandaag om ${o.time}: kaarsjesmoment voor ${name}`,
            line: `De familie nodigt je uit om vandaag om ${o.time} samen een kaarsje aan te steken voor ${name}. Wie dan de gedenkpagina opent, ziet de kaarsjes live verschijnen.`,
          };
  return buildMail({
    to: o.to,
    name: o.name,
    subject,
    body: [line, 'De gedenkpagina:', { link: o.pageUrl, label: 'Naar de gedenkpagina' }],
    footer: footer(pageOf(o.memorialName), 'om een herinnering op herdenkingsdagen vroeg', o.links),
    headers: headers(o.links),
  });
}

/**
 * The double opt-in: nothing is sent to the address until its owner follows this link. Whoever filled in
 * the form may have typed someone else's address, so the mail names nobody: 'Hallo,'.
 */
export function confirmSubscriptionMail(o: {
  to: string;
  memorialName: string;
  kinds: string[];
  confirmUrl: string;
  days: number;
}): Mail {
  const page = pageOf(o.memorialName);
  return buildMail({
    to: o.to,
    name: null,
    subject: `Bevestig je aanmelding voor de gedenkpagina ${page}`,
    body: [
      `Iemand (hopelijk jij) heeft dit e-mailadres opgegeven op de gedenkpagina ${page}, voor:`,
      { list: o.kinds },
      `Klopt dat? Bevestig het met deze link (${o.days} dagen geldig):`,
      { link: o.confirmUrl, label: 'Aanmelding bevestigen' },
      'Was jij het niet? Dan hoef je niets te doen: zonder bevestiging krijg je niets van ons.',
    ],
  });
}
