import type { MemberRole } from '@aandenken/contract';

/** What a role may do, in the words of an invitation. */
export const roleDescription: Record<MemberRole, string> = {
  owner: 'je beheert de pagina samen met de familie',
  editor: 'je kunt de pagina aanpassen en herinneringen goedkeuren',
  contributor: 'je kunt herinneringen en foto’s delen',
  guest: 'je kunt de pagina bekijken en herinneringen delen',
};
