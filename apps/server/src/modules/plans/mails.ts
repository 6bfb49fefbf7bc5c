import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

export type NoticeKind = 'ends_in_7' | 'ends_in_1' | 'read_only';

/** To an owner: the trial or the paid year ends soon, or has ended; with a one-click link to pay. */
export function planNoticeMail(o: {
  to: string;
  ownerName: string | null;
  memorialName: string;
  kind: NoticeKind;
  plan: 'trial' | 'basis' | 'premium';
  endsAt: Date;
  payUrl: string;
}): Mail {
  const memorial = mailName(o.memorialName) ?? 'je gedenkpagina';
  const what = o.plan === 'trial' ? 'De gratis proefperiode' : 'Het betaalde jaar van het Basis-abonnement';
  const subject =
    o.kind === 'read_only'
      ? `De gedenkpagina voor ${memorial} is nu alleen te lezen`
      : o.kind === 'ends_in_1'
        ? `Morgen eindigt de ${o.plan === 'trial' ? 'proefperiode' : 'betaalde periode'} van de gedenkpagina voor ${memorial}`
        : `Over 7 dagen eindigt de ${o.plan === 'trial' ? 'proefperiode' : 'betaalde periode'} van de gedenkpagina voor ${memorial}`;
  const body =
    o.kind === 'read_only'
      ? [
          `${what} van de gedenkpagina voor ${memorial} is op ${dateNl(o.endsAt)} geëindigd.`,
          'De pagina blijft online en bezoekers kunnen alles blijven lezen en kaarsjes aansteken. Er kan alleen niets nieuws bij tot er een abonnement is gekozen. We verwijderen de pagina nooit omdat er niet betaald is.',
        ]
      : [
          `${what} van de gedenkpagina voor ${memorial} eindigt op ${dateNl(o.endsAt)}.`,
          'Kies voor die datum Basis (50 euro per jaar) of Premium (199 euro, eenmalig), dan kan iedereen herinneringen blijven toevoegen. Doe je niets, dan blijft de pagina online en te lezen, maar kan er niets nieuws bij.',
        ];
  return buildMail({
    to: o.to,
    name: o.ownerName,
    subject,
    body: [
      ...body,
      'Kies een abonnement en betaal met iDEAL:',
      { link: o.payUrl, label: 'Abonnement kiezen' },
    ],
  });
}
