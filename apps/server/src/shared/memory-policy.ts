import { roleAtLeast, type MemoryStatus } from '@aandenken/contract';
import type { Caller } from '../lib/auth.ts';
import type { MemorialAccess } from './memorial-access.ts';

/**
 * Who may see and change a memory, given the caller's access to its memorial (from
 * memorialAccessService). Shared by the memories and media modules so a memory's photos follow
 * exactly the memory's own visibility.
 */
export interface MemoryFacts {
  status: MemoryStatus;
  membersOnly: boolean;
  authorUserId: string | null;
  authorGuestTokenId: string | null;
  /** Hidden after a report ('Melden'): seen by the page's owners only. */
  hidden?: boolean;
}

export function isMemoryAuthor(caller: Caller, m: MemoryFacts): boolean {
  if (caller.kind === 'user') return m.authorUserId !== null && m.authorUserId === caller.userId;
  if (caller.kind === 'guest')
    return m.authorGuestTokenId !== null && m.authorGuestTokenId === caller.tokenId;
  return false;
}

/**
 * A member is a signed-in person with a role on the memorial (owner, editor, contributor or an
 * invited guest). Visitors of a public page and holders of only the access code are not members.
 */
export function isMember(caller: Caller, access: MemorialAccess): boolean {
  return caller.kind === 'user' && roleAtLeast(access.role, 'guest');
}

export function canSeeMemory(caller: Caller, access: MemorialAccess, m: MemoryFacts): boolean {
  if (!access.role) return false;
  if (m.hidden) return access.role === 'owner';
  if (isMemoryAuthor(caller, m)) return true;
  if (m.status === 'published') return !m.membersOnly || isMember(caller, access);
  if (m.status === 'pending' || m.status === 'rejected') return roleAtLeast(access.role, 'editor');
  return false; // a concept is its author's alone
}

/** Edit text, change privacy, add photos: the author, or an editor/owner (not of someone's concept). */
export function canEditMemory(caller: Caller, access: MemorialAccess, m: MemoryFacts): boolean {
  if (isMemoryAuthor(caller, m)) return roleAtLeast(access.role, 'guest');
  return m.status !== 'concept' && roleAtLeast(access.role, 'editor');
}

export function canDeleteMemory(caller: Caller, access: MemorialAccess, m: MemoryFacts): boolean {
  return canEditMemory(caller, access, m);
}

/** Anyone may see it without signing in: a published, not members-only memory on an active public memorial. */
export function isMemoryOpen(
  access: Pick<MemorialAccess, 'status' | 'visibility'>,
  m: Pick<MemoryFacts, 'status' | 'membersOnly' | 'hidden'>,
) {
  return (
    !m.hidden &&
    access.visibility === 'public' &&
    access.status === 'active' &&
    m.status === 'published' &&
    !m.membersOnly
  );
}
