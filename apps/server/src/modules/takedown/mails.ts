import {
  routes,
  takedownReasonLabels,
  type TakedownItemType,
  type TakedownReason,
} from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { mailName } from '../../lib/mail-format.ts';

const what = (t: TakedownItemType) => (t === 'memory' ? 'een herinnering' : 'een foto of video');

/**
 * To each of the page's owners. The reporter may be anyone, so their own words are not mailed (only ours
 * and the reason they chose); the owners read the report in the page's management.
 */
export function ownersReportMail(o: {
  to: string;
  /** The owner's own name (their account's). */
  name: string | null;
  memorialName: string;
  memorialId: string;
  itemType: TakedownItemType;
  reason: TakedownReason;
  appUrl: string;
}): Mail {
  const name = mailName(o.memorialName) ?? 'je gedenkpagina';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `Melding op de gedenkpagina van ${name}`,
    body: [
      `Iemand heeft ${what(o.itemType)} op de gedenkpagina van ${name} gemeld.\nDe gekozen reden: ${takedownReasonLabels[o.reason]}.`,
      'Je ziet de melding bij het beheer van de pagina, onder Meldingen. Daar kun je het onderdeel ook verbergen.\nOns team kijkt er ook naar en kan het verbergen als dat nodig is.',
      {
        link: `${o.appUrl}${routes.memorialManage(o.memorialId, 'meldingen')}`,
        label: 'Naar de meldingen',
      },
    ],
  });
}

/** To the team (ADMIN_EMAILS): everything the reporter gave, for the team's judgement. */
export function teamReportMail(o: {
  to: string[];
  memorialName: string;
  itemType: TakedownItemType;
  itemId: string;
  reason: TakedownReason;
  details: string | null;
  appUrl: string;
}): Mail {
  return buildMail({
    audience: 'team',
    to: o.to,
    subject: `Nieuwe melding: ${what(o.itemType)} op de pagina van ${mailName(o.memorialName) ?? 'een gedenkpagina'}`,
    body: [
      `Er is ${what(o.itemType)} gemeld.`,
      [`Reden: ${takedownReasonLabels[o.reason]}`, ...(o.details ? ['Toelichting:', o.details] : [])].join(
        '\n',
      ),
      `Onderdeel: ${o.itemType} ${o.itemId}\nBekijk en verberg het op het teamscherm:`,
      { link: `${o.appUrl}${routes.teamReview}`, label: 'Naar het teamscherm' },
    ],
  });
}

/** To each owner when the team hid something on their page, with the team's reason. */
export function ownersHiddenMail(o: {
  to: string;
  /** The owner's own name (their account's). */
  name: string | null;
  memorialName: string;
  itemType: TakedownItemType;
  reason: string;
}): Mail {
  const name = mailName(o.memorialName) ?? 'je gedenkpagina';
  return buildMail({
    to: o.to,
    name: o.name,
    subject: `Ons team heeft iets verborgen op de gedenkpagina van ${name}`,
    body: [
      `Na een melding heeft ons team ${what(o.itemType)} op de gedenkpagina van ${name} verborgen. Bezoekers en leden zien het niet meer; jij ziet het nog bij het beheer van de pagina, onder Meldingen.`,
      `De reden:\n${o.reason}`,
      'Ben je het er niet mee eens? Neem contact met ons op via het contactformulier op onze website.',
    ],
  });
}
