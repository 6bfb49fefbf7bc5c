import { VISITOR_MEMORY_LINK_DAYS } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { mailName } from '../../lib/mail-format.ts';

/**
 * To the address a visitor gave with their memory. The address has not proven itself, so the mail holds
 * nothing the visitor wrote (not even their name, so 'Hallo,'): our own words, the page's name and the link.
 */
export function visitorMemoryConfirmMail(o: { to: string; memorialName: string; confirmUrl: string }): Mail {
  const name = mailName(o.memorialName) ?? 'een gedenkpagina';
  return buildMail({
    to: o.to,
    name: null,
    subject: `Bevestig je herinnering voor ${name}`,
    body: [
      `Met dit e-mailadres is een herinnering achtergelaten op de gedenkpagina van ${name} bij Aandenken.\nBevestig met de link hieronder dat het adres van jou is. Daarna bekijkt de familie je herinnering; zodra zij die goedkeurt, staat ze op de pagina.`,
      { link: o.confirmUrl, label: 'Herinnering bevestigen' },
      `De link werkt ${VISITOR_MEMORY_LINK_DAYS} dagen en één keer.\nHeb jij niets achtergelaten? Dan kun je deze e-mail negeren; er gebeurt dan niets.`,
    ],
  });
}
