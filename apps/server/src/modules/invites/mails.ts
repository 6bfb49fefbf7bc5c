import { memberRoleLabels, type MemberRole } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';
import { dateNl, mailName } from '../../lib/mail-format.ts';

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
  const inviter = mailName(input.inviterName) ?? 'Iemand';
  const name = mailName(input.memorialName);
  const memorial = name ? `de gedenkpagina van ${name}` : 'een gedenkpagina';
  const role = memberRoleLabels[input.role].toLowerCase();
  return buildMail({
    to: input.to,
    name: input.inviteeName,
    subject: `${inviter} nodigt je uit voor ${memorial}`,
    body: [
      [
        `${inviter} nodigt je uit voor `,
        ...(name ? ['de gedenkpagina van ', { strong: name }] : ['een gedenkpagina']),
        ` op Aandenken, als ${role}: ${roleMeaning[input.role]}.`,
      ],
      'Neem de uitnodiging aan via deze link (je logt in of maakt een account aan):',
      { link: input.acceptUrl, label: 'Uitnodiging aannemen' },
      ...(input.guestUrl
        ? [
            'Eerst alleen kijken, zonder account? Deze link werkt één keer:',
            { link: input.guestUrl, label: 'Bekijk de pagina als gast' },
          ]
        : []),
      `De uitnodiging is geldig tot en met ${dateNl(input.expiresAt)}.\nVerwachtte je deze uitnodiging niet? Dan kun je deze e-mail negeren.`,
    ],
  });
}
