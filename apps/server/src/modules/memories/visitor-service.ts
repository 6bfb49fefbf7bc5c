import { randomUUID } from 'node:crypto';
import { routes, VISITOR_MEMORY_LINK_DAYS, type visitorMemoryCreateSchema } from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { IngestedMedia } from '../../lib/media/pipeline.ts';
import type { ReceivedFile } from '../../lib/media/upload.ts';
import { AppError, recipientMailLimitReached } from '../../lib/errors.ts';
import { signedLinks } from '../../lib/signed-links.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialNotFound } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { planPolicy } from '../../shared/plans.ts';
import { memoryFactsRepository } from '../../shared/memory-facts.ts';
import { mediaService } from '../media/service.ts';
import { visitorMemoryRepository as repo } from './repository.ts';
import { visitorMemoryConfirmMail } from './visitor-mail.ts';

const DAY_MS = 24 * 3600_000;

export const visitorMemoriesOff = () =>
  new AppError(
    403,
    'VISITOR_MEMORIES_OFF',
    'Op deze pagina kunnen bezoekers geen herinnering achterlaten. De familie heeft dat niet aangezet.',
  );

/** What opening the link in the mail came to; the page says it in words (visitor-page.ts). */
export type VisitorConfirmation =
  | { outcome: 'confirmed'; memorialId: string; memorialName: string }
  | { outcome: 'used' | 'expired' | 'invalid' | 'off'; memorialId?: string; memorialName?: string };

export type VisitorMemoryDeps = Pick<Deps, 'db' | 'outbox' | 'config' | 'storage' | 'queue' | 'signer'>;

/**
 * Memories from visitors of a public page (docs/decisions/025-visitor-memories.md): a concept nobody sees
 * until the address confirms it with the signed, expiring, single-use link in the mail; then a guest's memory
 * waiting in the page's moderation queue ('pending'), shown with the visitor's name once approved.
 */
export function visitorMemoryService(deps: VisitorMemoryDeps) {
  const { db, outbox, config } = deps;
  const media = mediaService({ ...deps, ffmpegPath: null, trialDays: config.TRIAL_DAYS });
  const links = signedLinks(db, 'visitor-memory-link-key', 'visitor-memory');
  const plan = planPolicy({ trialDays: config.TRIAL_DAYS });

  async function openPage(memorialId: string) {
    const m = isUuid(memorialId) ? await repo.page(db, memorialId) : undefined;
    // Private, invite-only and unpublished pages say nothing about themselves to a visitor.
    if (!m || m.visibility !== 'public' || m.status !== 'active' || m.invite_only) throw memorialNotFound();
    if (!m.visitor_memories) throw visitorMemoriesOff();
    return m;
  }

  async function storeMemory(
    memorialId: string,
    m: { first_name: string; last_name: string },
    input: z.output<typeof visitorMemoryCreateSchema>,
    ingested: IngestedMedia | null,
  ) {
    const id = randomUUID();
    const email = input.email.toLowerCase();
    const linkExpiresAt = Date.now() + VISITOR_MEMORY_LINK_DAYS * DAY_MS;
    const query = await links.sign(id, linkExpiresAt);
    await db.transaction(async (tx) => {
      await plan.requireWritable(tx, memorialId);
      // Concepts whose link expired unconfirmed go (a few at a time, on the way).
      await repo.sweepUnconfirmed(tx, VISITOR_MEMORY_LINK_DAYS + 1);
      await repo.insert(tx, {
        id,
        memorialId,
        yearLabel: input.yearLabel,
        body: input.text,
        name: input.name,
      });
      if (ingested) await media.attachVisitorPhoto(tx, ingested, { memorialId, memoryId: id });
      await repo.insertAddress(tx, { memoryId: id, memorialId, email });
      const queued = await outbox.enqueueLimited(
        tx,
        visitorMemoryConfirmMail({
          to: email,
          memorialName: `${m.first_name} ${m.last_name}`,
          confirmUrl: `${config.APP_URL}${routes.visitorMemoryConfirm}?id=${id}&${query}`,
        }),
        'visitor',
      );
      // Thrown inside the transaction: the memory is not kept either.
      if (!queued) throw recipientMailLimitReached();
    });
  }

  return {
    /** Before a photo's bytes are read: the page takes memories from visitors and can still be written to. */
    async authorizePhoto(memorialId: string): Promise<void> {
      await openPage(memorialId);
      await plan.requireWritable(db, memorialId);
    },

    /**
     * The memory, and its photo when one came with it (already received by the caller). The photo goes
     * through the members' pipeline (type = first bytes = full decode, metadata gone, the same variants) and
     * belongs to the concept: it follows the memory's visibility, and goes with it.
     */
    async submit(
      memorialId: string,
      input: z.output<typeof visitorMemoryCreateSchema>,
      photo?: ReceivedFile,
    ) {
      const m = await openPage(memorialId);
      const ingested = photo ? await media.ingestVisitorPhoto(photo) : null;
      try {
        await storeMemory(memorialId, m, input, ingested);
      } catch (err) {
        if (ingested) await media.discardIngested(ingested.id);
        throw err;
      }
      if (ingested) media.notifyJobs();
      return { pending: true as const };
    },

    /** The link in the mail: once, before it expires, and only while the family still takes memories. */
    async confirm(
      id: string,
      exp: string | undefined,
      sig: string | undefined,
    ): Promise<VisitorConfirmation> {
      if (!isUuid(id)) return { outcome: 'invalid' };
      const check = await links.check(id, exp, sig, { maxAgeS: VISITOR_MEMORY_LINK_DAYS * 86_400 });
      if (check !== 'valid') return { outcome: check };
      return db.transaction(async (tx) => {
        const v = await repo.lockSubmission(tx, id);
        // Deleted since (by the family, or swept): the link has nothing left to confirm.
        if (!v) return { outcome: 'used' as const };
        const where = { memorialId: v.memorial_id, memorialName: `${v.first_name} ${v.last_name}` };
        if (v.confirmed_at) return { outcome: 'used' as const, ...where };
        if (!v.visitor_memories || v.visibility !== 'public') return { outcome: 'off' as const, ...where };
        await repo.markConfirmed(tx, id);
        await memoryFactsRepository(tx).setStatus(tx, id, 'pending', null);
        await recordAudit(tx, {
          memorialId: v.memorial_id,
          actor: null,
          action: 'memory.submitted',
          targetType: 'memory',
          targetId: id,
          details: { visitor: true },
        });
        return { outcome: 'confirmed' as const, ...where };
      });
    },
  };
}
