import { memberRoles, type MemberRole } from '@aandenken/contract';

/** What each role may, as the invite form's role options say it. */
export const roleDescriptions: Record<MemberRole, string> = {
  owner: 'beheert alles, ook mensen en het logboek',
  editor: 'past de pagina aan en keurt herinneringen goed',
  contributor: 'plaatst herinneringen en foto’s direct',
  guest: 'bekijkt de pagina; herinneringen wachten op goedkeuring',
};

/** Which roles the caller may give someone with `current` (the server decides too). */
export function assignableRoles(actor: MemberRole, current: MemberRole): MemberRole[] {
  if (actor === 'owner') return [...memberRoles];
  if (actor === 'editor' && (current === 'contributor' || current === 'guest'))
    return ['contributor', 'guest'];
  return [];
}
