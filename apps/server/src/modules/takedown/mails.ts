import {
  routes,
  takedownReasonLabels,
  type TakedownItemType,
  type TakedownReason,
} from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { mailName } from '../../lib/mail-format.ts';

const what = (t: TakedownItemType) => (t === 'memory' ? 'een herinnering' : 'een foto of video');

/**
 * To the page's owners. The reporter may be anyone, so their own words are not mailed (only ours and the
 * reason they chose); the owners read the report in the page's management.
 */
export function ownersReportMail(o: {
  to: string[];
  memorialName: string;
  memorialId: string;
  itemType: TakedownItemType;
  reason: TakedownReason;
  appUrl: string;
}): Mail {
  const name = mailName(o.memorialName) ?? 'je gedenkpagina';
  return {
    to: o.to,
    subject: `Melding op de gedenkpagina van ${name}`,
    text: [
      'Beste eigenaar,',
      '',
      `Iemand heeft ${what(o.itemType)} op de gedenkpagina van ${name} gemeld.`,
      `De gekozen reden: ${takedownReasonLabels[o.reason]}.`,
      '',
      'Je ziet de melding bij het beheer van de pagina, onder Meldingen. Daar kun je het onderdeel ook verbergen.',
      'Ons team kijkt er ook naar en kan het verbergen als dat nodig is.',
      '',
      `${o.appUrl}${routes.memorialManage(o.memorialId, 'meldingen')}`,
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
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
  return {
    to: o.to,
    subject: `Nieuwe melding: ${what(o.itemType)} op de pagina van ${mailName(o.memorialName) ?? 'een gedenkpagina'}`,
    text: [
      `Er is ${what(o.itemType)} gemeld.`,
      '',
      `Reden: ${takedownReasonLabels[o.reason]}`,
      ...(o.details ? ['Toelichting:', o.details] : []),
      '',
      `Onderdeel: ${o.itemType} ${o.itemId}`,
      `Bekijk en verberg het op het teamscherm: ${o.appUrl}${routes.teamReview}`,
    ].join('\n'),
  };
}

/** To the owners when the team hid something on their page, with the team's reason. */
export function ownersHiddenMail(o: {
  to: string[];
  memorialName: string;
  itemType: TakedownItemType;
  reason: string;
}): Mail {
  const name = mailName(o.memorialName) ?? 'je gedenkpagina';
  return {
    to: o.to,
    subject: `Ons team heeft iets verborgen op de gedenkpagina van ${name}`,
    text: [
      'Beste eigenaar,',
      '',
      `Na een melding heeft ons team ${what(o.itemType)} op de gedenkpagina van ${name} verborgen. Bezoekers en leden zien het niet meer; jij ziet het nog bij het beheer van de pagina, onder Meldingen.`,
      '',
      'De reden:',
      o.reason,
      '',
      'Ben je het er niet mee eens? Neem contact met ons op via het contactformulier op onze website.',
      '',
      'Met vriendelijke groet,',
      'Het team van Aandenken',
    ].join('\n'),
  };
}
