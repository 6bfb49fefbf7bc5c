import { memberRoleLabels, type MemberRole } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { dateNl, escapeHtml, greeting, mailName } from '../../lib/mail-format.ts';

const roleMeaning: Record<MemberRole, string> = {
  owner: 'je beheert de pagina',
  editor: 'je beheert de pagina mee en keurt herinneringen goed',
  contributor: 'je voegt herinneringen, foto’s en video’s toe',
  guest: 'je bekijkt de pagina, deelt herinneringen en steekt een kaarsje aan',
};

/**
 * The invitation. The invitee has not proven their address, so the names in it (the invitee's as the
 * inviter typed it, the inviter's own, the memorial's) are one line without links (`mailName`), or our
 * own words; nothing else the inviter writes is mailed.
 */
export function inviteMail(input: {
  to: string;
  inviteeName: string | null;
  inviterName: string | null;
  memorialName: string;
  role: MemberRole;
  acceptUrl: string;
  guestUrl: string | null;
  expiresAt: Date;
}): Mail {
  const i = {
    ...input,
    inviteeName: mailName(input.inviteeName),
    inviterName: mailName(input.inviterName) ?? 'Iemand',
    memorialName: mailName(input.memorialName),
  };
  const memorial = i.memorialName ? `de gedenkpagina van ${i.memorialName}` : 'een gedenkpagina';
  const role = memberRoleLabels[i.role].toLowerCase();
  const lines = [
    greeting(i.inviteeName),
    '',
    `${i.inviterName} nodigt je uit voor ${memorial} op Aandenken, als ${role}: ${roleMeaning[i.role]}.`,
    '',
    'Neem de uitnodiging aan via deze link (je logt in of maakt een account aan):',
    i.acceptUrl,
    ...(i.guestUrl ? ['', 'Eerst alleen kijken, zonder account? Deze link werkt één keer:', i.guestUrl] : []),
    '',
    `De uitnodiging is geldig tot en met ${dateNl(i.expiresAt)}.`,
    'Verwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.',
    '',
    'Met vriendelijke groet,',
    'Het team van Aandenken',
  ];
  const e = escapeHtml;
  const html = [
    `<p>${e(greeting(i.inviteeName))}</p>`,
    `<p>${e(i.inviterName)} nodigt je uit voor ${i.memorialName ? `de gedenkpagina van <strong>${e(i.memorialName)}</strong>` : 'een gedenkpagina'} op Aandenken, als ${e(role)}: ${e(roleMeaning[i.role])}.</p>`,
    `<p><a href="${e(i.acceptUrl)}">Uitnodiging aannemen</a></p>`,
    ...(i.guestUrl
      ? [
          `<p>Eerst alleen kijken, zonder account? <a href="${e(i.guestUrl)}">Bekijk de pagina als gast</a> (deze link werkt één keer).</p>`,
        ]
      : []),
    `<p>De uitnodiging is geldig tot en met ${e(dateNl(i.expiresAt))}. Verwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.</p>`,
    '<p>Met vriendelijke groet,<br>Het team van Aandenken</p>',
  ].join('\n');
  return {
    to: i.to,
    subject: `${i.inviterName} nodigt je uit voor ${memorial}`,
    text: lines.join('\n'),
    html,
  };
}
