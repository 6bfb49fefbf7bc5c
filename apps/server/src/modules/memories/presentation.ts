import { MEMORY_LOVED_BY_INITIALS_MAX, type LovedBy, type MediaItem, type Memory } from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { MediaUrls } from '../../lib/media/url-signer.ts';
import { presentMedia } from '../../shared/media-present.ts';
import type { MediaRow } from '../../shared/media-rows.ts';
import type { MemorialAccess } from '../../shared/memorial-access.ts';
import {
  canDeleteMemory,
  canEditMemory,
  isMemoryAuthor,
  isMemoryOpen,
  type MemoryFacts,
} from '../../shared/memory-policy.ts';
import { iso } from '../../shared/time.ts';
import type { MemoryRow, Viewer } from './repository.ts';

export const viewerOf = (caller: Caller): Viewer => ({
  userId: caller.kind === 'user' ? caller.userId : null,
  guestTokenId: caller.kind === 'guest' ? caller.tokenId : null,
});

export const factsOf = (
  r: Pick<MemoryRow, 'status' | 'members_only' | 'author_user_id' | 'author_guest_token_id'>,
): MemoryFacts => ({
  status: r.status,
  membersOnly: r.members_only,
  authorUserId: r.author_user_id,
  authorGuestTokenId: r.author_guest_token_id,
});

/** 'Anna de Vries' → 'AV'; 'jet' → 'J'. */
export function initialsOf(name: string | null): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = words[0]!;
  const last = words.length > 1 ? words[words.length - 1]! : '';
  return (first.charAt(0) + last.charAt(0)).toUpperCase();
}

export function lovedBy(row: MemoryRow): LovedBy {
  return {
    count: row.love_count,
    byMe: row.loved_by_me,
    initials: row.lover_names.slice(0, MEMORY_LOVED_BY_INITIALS_MAX).map(initialsOf),
  };
}

export function toMemory(
  caller: Caller,
  acc: MemorialAccess,
  row: MemoryRow,
  mediaRows: MediaRow[],
  urls: MediaUrls,
): Memory {
  const facts = factsOf(row);
  const open = isMemoryOpen(acc, facts);
  return {
    id: row.id,
    memorialId: row.memorial_id,
    yearLabel: row.year_label,
    text: row.body,
    status: row.status,
    membersOnly: row.members_only,
    author: { kind: row.author_kind, name: row.author_display_name, isYou: isMemoryAuthor(caller, facts) },
    media: mediaRows.map((m): MediaItem => presentMedia(m, { caller, urls, open })),
    lovedBy: lovedBy(row),
    canEdit: canEditMemory(caller, acc, facts),
    canDelete: canDeleteMemory(caller, acc, facts),
    publishedAt: row.published_at ? iso(row.published_at) : null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * A photo from a card as the media row it was presented from, for presenting it again for someone else
 * (`presentMedia`). The uploader is not on the card: it is only used where the caller uploaded none of the
 * memory's photos.
 */
export const mediaRowOf = (item: MediaItem): MediaRow => ({
  id: item.id,
  memorial_id: item.memorialId,
  memory_id: item.memoryId,
  kind: item.kind,
  status: item.status,
  content_type: item.contentType,
  size_bytes: item.sizeBytes,
  width: item.width,
  height: item.height,
  caption: item.caption,
  position: item.position,
  uploaded_by_user_id: null,
  uploaded_by_guest_token_id: null,
  created_at: item.createdAt,
  variants: item.variants.map(({ url: _url, ...v }) => v),
});
