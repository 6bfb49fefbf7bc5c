import { createHash } from 'node:crypto';
import type { Memory } from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { MediaUrlSigner, MediaUrls } from '../../lib/media/url-signer.ts';
import { presentMedia } from '../../shared/media-present.ts';
import type { MemorialAccess } from '../../shared/memorial-access.ts';
import { canDeleteMemory, canEditMemory, isMemoryAuthor, isMemoryOpen } from '../../shared/memory-policy.ts';
import { factsOf, mediaRowOf, toMemory } from './presentation.ts';
import type { WallCardRow, WallRow } from './repository.ts';
import { SAMPLE } from './sample-memory.ts';

/** Whom a memory's card is made for: someone with no stake in it, on an open page. */
const NOBODY: Caller = { kind: 'anonymous' };
const openPage = (memorialId: string): MemorialAccess => ({
  memorialId,
  status: 'active',
  visibility: 'public',
  role: 'visitor',
});

/** A memory's card: the memory as shown to someone with no stake in it on an open page (`WallCardRow`). */
export function cardOf(row: WallRow, urls: MediaUrls): string {
  const neutral = { ...row, loved_by_me: false };
  return JSON.stringify(toMemory(NOBODY, openPage(row.memorial_id), neutral, row.media, urls));
}

/** The key stored cards are made under (see `SAMPLE`); worked out once per service. */
export function cardKeyOf(signer: MediaUrlSigner) {
  let cardKeyOnce: Promise<string> | undefined;
  return () =>
    (cardKeyOnce ??= signer
      .urls()
      .then((urls) => createHash('sha256').update(cardOf(SAMPLE, urls)).digest('base64url').slice(0, 16))
      .catch((err: unknown) => {
        cardKeyOnce = undefined;
        throw err;
      }));
}

/**
 * A memory from its card, for this caller. The card is the memory exactly as it is shown to someone with no
 * stake in it on an open page; for anyone else the parts that are theirs are put in: whether they wrote it,
 * may edit it, loved it, and signed photo links where the memory is not open to anyone. (A memory with the
 * caller's own photos in it is read in full instead: the card does not say who uploaded what.)
 */
export function fromCard(
  caller: Caller,
  acc: MemorialAccess,
  row: WallCardRow,
  card: string,
  urls: MediaUrls,
) {
  const facts = factsOf(row);
  const open = isMemoryOpen(acc, facts);
  const isYou = isMemoryAuthor(caller, facts);
  const canEdit = canEditMemory(caller, acc, facts);
  if (open && !isYou && !canEdit && !row.loved_by_me) return card;
  const memory = JSON.parse(card) as Memory;
  memory.author.isYou = isYou;
  memory.canEdit = canEdit;
  memory.canDelete = canDeleteMemory(caller, acc, facts);
  memory.lovedBy.byMe = row.loved_by_me;
  if (!open)
    memory.media = memory.media.map((item) => presentMedia(mediaRowOf(item), { caller, urls, open }));
  return JSON.stringify(memory);
}
