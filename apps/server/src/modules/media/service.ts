import {
  MEDIA_GALLERY_MAX,
  MEDIA_PER_MEMORY_MAX,
  mediaErrorCodes,
  roleAtLeast,
  type MediaItem,
  type memorialMediaQuerySchema,
  type memorialMediaReorderSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError, badRequest, forbidden } from '../../lib/errors.ts';
import type { JobQueue } from '../../lib/jobs/job-queue.ts';
import { ingestUpload, type IngestedMedia } from '../../lib/media/pipeline.ts';
import { resolveFfmpeg } from '../../lib/media/video.ts';
import type { MediaStorage } from '../../lib/media/storage.ts';
import type { ReceivedFile } from '../../lib/media/upload.ts';
import type { MediaUrlSigner, MediaUrls } from '../../lib/media/url-signer.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, type MemorialAccess } from '../../shared/memorial-access.ts';
import { clampLimit, decodeCursor, isUuid, toPage } from '../../shared/pagination.ts';
import {
  canEditMemory,
  canSeeMemory,
  isMemoryAuthor,
  isMemoryOpen,
  type MemoryFacts,
} from '../../shared/memory-policy.ts';
import { memoryFactsRepository } from '../../shared/memory-facts.ts';
import { memorialArchived, memoryNotFound } from '../../shared/errors.ts';
import { planPolicy } from '../../shared/plans.ts';
import { DEFAULT_TRIAL_DAYS } from '@aandenken/contract';
import { isOwnUpload, presentMedia } from '../../shared/media-present.ts';
import { mediaRepository, type MediaWithMemoryRow } from './repository.ts';
import type { MediaRow } from '../../shared/media-rows.ts';

export const MEDIA_VARIANTS_JOB = 'media.variants';

export const mediaNotFound = () =>
  new AppError(
    404,
    mediaErrorCodes.mediaNotFound,
    'Deze foto of video bestaat niet of je hebt er geen toegang toe.',
  );
const limitReached = (max: number, where: string) =>
  new AppError(
    409,
    mediaErrorCodes.mediaLimitReached,
    `Er kunnen maximaal ${max} foto's en video's ${where}.`,
  );

const memoryFactsOf = (row: MediaWithMemoryRow): MemoryFacts => ({
  status: row.memory_status!,
  membersOnly: row.memory_members_only!,
  authorUserId: row.memory_author_user_id,
  authorGuestTokenId: row.memory_author_guest_token_id,
  hidden: row.hidden,
});

const uploaderOf = (caller: Caller) => ({
  userId: caller.kind === 'user' ? caller.userId : null,
  guestTokenId: caller.kind === 'guest' ? caller.tokenId : null,
});

export interface MediaServiceDeps {
  db: Db;
  storage: MediaStorage;
  queue: JobQueue;
  signer: MediaUrlSigner;
  /** ffmpeg, which rewrites videos without their metadata (`lib/media/video.ts`); found when not given. */
  ffmpegPath?: string | null;
  /** TRIAL_DAYS: a memorial's trial length (docs/plans.md). */
  trialDays?: number;
}

export function mediaService({
  db,
  storage,
  queue,
  signer,
  ffmpegPath = resolveFfmpeg(),
  trialDays = DEFAULT_TRIAL_DAYS,
}: MediaServiceDeps) {
  const access = memorialAccessService(db);
  const plan = planPolicy({ trialDays });
  const repo = mediaRepository(db);
  const memories = memoryFactsRepository(db);

  /** Whether anyone may see this media without signing in (then its URLs need no signature). */
  const isOpen = (acc: Pick<MemorialAccess, 'status' | 'visibility'>, row: MediaWithMemoryRow | MediaRow) =>
    'memory_status' in row && row.memory_id
      ? isMemoryOpen(acc, memoryFactsOf(row as MediaWithMemoryRow))
      : acc.visibility === 'public' && acc.status === 'active';

  const present = (
    caller: Caller,
    acc: MemorialAccess,
    urls: MediaUrls,
    row: MediaWithMemoryRow | MediaRow,
  ): MediaItem => presentMedia(row, { caller, urls, open: isOpen(acc, row) });

  /**
   * Authorization for one media item: the caller must see its memorial and, for a memory's media,
   * the memory. Anything else answers exactly like a missing item.
   */
  async function requireVisible(caller: Caller, id: string, where: 'gallery' | 'memory') {
    if (!isUuid(id)) throw mediaNotFound();
    const row = await repo.findById(id);
    if (!row || (where === 'gallery') !== (row.memory_id === null)) throw mediaNotFound();
    const acc = await access.resolve(caller, row.memorial_id);
    if (!acc?.role) throw mediaNotFound();
    if (row.hidden && acc.role !== 'owner') throw mediaNotFound();
    if (row.memory_id && !canSeeMemory(caller, acc, memoryFactsOf(row))) throw mediaNotFound();
    return { row, acc };
  }

  async function requireGalleryUpload(caller: Caller, memorialId: string) {
    const acc = await access.require(caller, memorialId, 'contributor');
    if (acc.status === 'archived') throw memorialArchived();
    await plan.requireWritable(db, memorialId);
    return acc;
  }

  async function requireMemoryUpload(caller: Caller, memoryId: string) {
    const memory = isUuid(memoryId) ? await memories.findFacts(memoryId) : undefined;
    if (!memory) throw memoryNotFound();
    const acc = await access.resolve(caller, memory.memorialId);
    if (!acc?.role || !canSeeMemory(caller, acc, memory)) throw memoryNotFound();
    if (!canEditMemory(caller, acc, memory))
      throw forbidden("Alleen de schrijver of een redacteur kan foto's toevoegen.");
    if (acc.status === 'archived') throw memorialArchived();
    await plan.requireWritable(db, memory.memorialId);
    return { acc, memory };
  }

  /** Stores an ingested upload as the next item of a list; removes its files again when that fails. */
  async function store(
    caller: Caller,
    file: ReceivedFile,
    target: {
      memorialId: string;
      memoryId: string | null;
      caption: string | null;
      max: number;
      where: string;
    },
    inTx?: (tx: Tx, mediaId: string) => Promise<void>,
  ): Promise<string> {
    const ingested = await ingestUpload(storage, file, { ffmpegPath });
    try {
      await db.transaction(async (tx) => {
        const count = await repo.lockListAndCount(tx, target.memorialId, target.memoryId);
        if (count >= target.max) throw limitReached(target.max, target.where);
        await repo.insert(tx, ingested, { ...target, ...uploaderOf(caller) });
        if (ingested.kind === 'image') await queue.enqueue(tx, MEDIA_VARIANTS_JOB, { mediaId: ingested.id });
        await inTx?.(tx, ingested.id);
        await recordAudit(tx, {
          memorialId: target.memorialId,
          actor: caller,
          action: 'media.added',
          targetType: 'media',
          targetId: ingested.id,
          details: { kind: ingested.kind, memoryId: target.memoryId },
        });
      });
    } catch (err) {
      await storage.deletePrefix(ingested.id).catch(() => {});
      throw err;
    }
    queue.notify();
    return ingested.id;
  }

  return {
    /** Runs as soon as the upload's text fields are known, before the file is read. */
    async authorizeGalleryUpload(caller: Caller, memorialId: string): Promise<void> {
      await requireGalleryUpload(caller, memorialId);
      if ((await repo.countList(memorialId, null)) >= MEDIA_GALLERY_MAX)
        throw limitReached(MEDIA_GALLERY_MAX, 'op een gedenkpagina');
    },

    async addToGallery(
      caller: Caller,
      input: { memorialId: string; caption?: string | null },
      file: ReceivedFile,
    ): Promise<MediaItem> {
      const acc = await requireGalleryUpload(caller, input.memorialId);
      const id = await store(caller, file, {
        memorialId: input.memorialId,
        memoryId: null,
        caption: input.caption ?? null,
        max: MEDIA_GALLERY_MAX,
        where: 'op een gedenkpagina',
      });
      const row = (await repo.findById(id))!;
      return present(caller, acc, await signer.urls(), row);
    },

    async authorizeMemoryUpload(caller: Caller, memoryId: string): Promise<void> {
      await requireMemoryUpload(caller, memoryId);
    },

    async addToMemory(caller: Caller, input: { memoryId: string }, file: ReceivedFile): Promise<MediaItem> {
      const { acc, memory } = await requireMemoryUpload(caller, input.memoryId);
      // A guest's change to a published memory goes back to the moderators.
      const needsModeration =
        memory.status === 'published' &&
        isMemoryAuthor(caller, memory) &&
        !roleAtLeast(acc.role, 'contributor');
      const id = await store(
        caller,
        file,
        {
          memorialId: memory.memorialId,
          memoryId: input.memoryId,
          caption: null,
          max: MEDIA_PER_MEMORY_MAX,
          where: 'bij een herinnering',
        },
        async (tx) => {
          if (needsModeration) await memories.setStatus(tx, input.memoryId, 'pending', null);
        },
      );
      const row = (await repo.findById(id))!;
      return present(caller, acc, await signer.urls(), row);
    },

    /**
     * A visitor's photo with their memory (modules/memories/visitor-service.ts): checked, decoded and stored
     * like every memory's photo; `attachVisitorPhoto` writes its row in the visitor's transaction, after the
     * memory's, and `discardIngested` removes its files when that transaction fails.
     */
    ingestVisitorPhoto: (file: ReceivedFile) => ingestUpload(storage, file, { ffmpegPath: null }),
    async attachVisitorPhoto(
      tx: Tx,
      ingested: IngestedMedia,
      target: { memorialId: string; memoryId: string },
    ): Promise<void> {
      await repo.insert(tx, ingested, { ...target, caption: null, userId: null, guestTokenId: null });
      await queue.enqueue(tx, MEDIA_VARIANTS_JOB, { mediaId: ingested.id });
    },
    discardIngested: (id: string) => storage.deletePrefix(id).catch(() => {}),
    notifyJobs: () => queue.notify(),

    async getGalleryItem(caller: Caller, id: string): Promise<MediaItem> {
      const { row, acc } = await requireVisible(caller, id, 'gallery');
      return present(caller, acc, await signer.urls(), row);
    },

    async getMemoryItem(caller: Caller, id: string): Promise<MediaItem> {
      const { row, acc } = await requireVisible(caller, id, 'memory');
      return present(caller, acc, await signer.urls(), row);
    },

    /** The whole gallery in order (bounded by MEDIA_GALLERY_MAX). */
    async listAll(caller: Caller, memorialId: string): Promise<{ items: MediaItem[] }> {
      const acc = await access.require(caller, memorialId, 'visitor');
      const rows = await repo.listGallery(memorialId, { limit: MEDIA_GALLERY_MAX });
      const urls = await signer.urls();
      return { items: rows.map((r) => present(caller, acc, urls, r)) };
    },

    async query(caller: Caller, input: z.output<typeof memorialMediaQuerySchema>) {
      const acc = await access.require(caller, input.memorialId, 'visitor');
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['number', 'string']) as [number, string] | null;
      if (after && !isUuid(after[1]))
        throw badRequest('Ongeldige cursor. Begin opnieuw bij de eerste pagina.', {
          cursor: 'Ongeldige cursor',
        });
      const rows = await repo.listGallery(input.memorialId, {
        kind: input.type,
        after: after ?? undefined,
        limit: limit + 1,
      });
      const urls = await signer.urls();
      return toPage(
        rows,
        limit,
        (r) => present(caller, acc, urls, r),
        (r) => [r.position, r.id],
      );
    },

    /** `orderedIds` must hold every gallery item of the memorial exactly once. */
    async reorder(
      caller: Caller,
      input: z.output<typeof memorialMediaReorderSchema>,
    ): Promise<{ items: MediaItem[] }> {
      const acc = await access.require(caller, input.memorialId, 'editor');
      await db.transaction(async (tx) => {
        // Items hidden after a report are not in the list the caller sees: they keep their place at the end.
        const { shown: current, hidden } = await repo.galleryIds(tx, input.memorialId);
        const given = new Set(input.orderedIds.map((i) => i.toLowerCase()));
        const isPermutation =
          given.size === input.orderedIds.length &&
          given.size === current.length &&
          current.every((i) => given.has(i));
        if (!isPermutation) {
          throw badRequest(
            'De nieuwe volgorde moet elke foto en video van deze pagina precies één keer bevatten.',
            {
              orderedIds: 'Geen volledige volgorde van de media van deze pagina',
            },
          );
        }
        await repo.reorder(tx, input.memorialId, [...given, ...hidden]);
        await recordAudit(tx, {
          memorialId: input.memorialId,
          actor: caller,
          action: 'media.reordered',
          details: { count: given.size },
        });
      });
      const rows = await repo.listGallery(input.memorialId, { limit: MEDIA_GALLERY_MAX });
      const urls = await signer.urls();
      return { items: rows.map((r) => present(caller, acc, urls, r)) };
    },

    /** The caption of a gallery item: editors and owners, or its uploader (still a contributor). */
    async updateCaption(caller: Caller, id: string, caption: string | null): Promise<MediaItem> {
      const { row, acc } = await requireVisible(caller, id, 'gallery');
      const allowed =
        roleAtLeast(acc.role, 'editor') || (isOwnUpload(caller, row) && roleAtLeast(acc.role, 'contributor'));
      if (!allowed)
        throw forbidden('Alleen wie de foto plaatste of een redacteur kan het onderschrift wijzigen.');
      await repo.updateCaption(id, caption);
      return present(caller, acc, await signer.urls(), { ...row, caption });
    },

    /** Gallery: editors and owners, or the uploader. Memory: also the memory's author (or an editor). */
    async remove(
      caller: Caller,
      id: string,
      where: 'gallery' | 'memory',
    ): Promise<{ id: string; deleted: true }> {
      const { row, acc } = await requireVisible(caller, id, where);
      const own = isOwnUpload(caller, row);
      const allowed =
        where === 'gallery'
          ? roleAtLeast(acc.role, 'editor') || (own && roleAtLeast(acc.role, 'contributor'))
          : roleAtLeast(acc.role, 'editor') || own || canEditMemory(caller, acc, memoryFactsOf(row));
      if (!allowed) throw forbidden('Alleen wie de foto plaatste of een redacteur kan deze verwijderen.');
      await db.transaction(async (tx) => {
        // The row's delete trigger queues the removal of its files.
        await repo.delete(tx, id);
        await recordAudit(tx, {
          memorialId: row.memorial_id,
          actor: caller,
          action: 'media.removed',
          targetType: 'media',
          targetId: id,
          details: { kind: row.kind, memoryId: row.memory_id },
        });
      });
      queue.notify();
      return { id, deleted: true };
    },
  };
}
export type MediaService = ReturnType<typeof mediaService>;
