import { contactSubjectLabels, type ContactMessage } from '@aandenken/contract';
import type { Mail } from '../../lib/mailer.ts';
import { buildMail } from '../../lib/mail-builder.ts';

/** A message from the contact form, to the team; answering it answers the sender. */
export function contactTeamMail(msg: ContactMessage, to: string[]): Mail {
  return buildMail({
    audience: 'team',
    to,
    replyTo: msg.email,
    subject: `Contactformulier: ${contactSubjectLabels[msg.subject]}`,
    body: [
      `Van: ${msg.name} <${msg.email}>\nOnderwerp: ${contactSubjectLabels[msg.subject]}`,
      ...msg.message.split(/\n{2,}/),
    ],
  });
}
