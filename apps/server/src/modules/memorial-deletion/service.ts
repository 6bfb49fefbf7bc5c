import {
  DELETED_MEMORIAL_DAYS,
  DELETED_PAGES_ANCHOR,
  MEMORIAL_DELETE_WORD,
  routes,
  type DeletedMemorials,
  type MemorialDelete,
  type MemorialDeleteResult,
  type MemorialRestoreResult,
} from '@aandenken/contract';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts';
import { handle, idJob, registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, memorialNotFound } from '../../shared/memorial-access.ts';
import { deletedMail } from './mails.ts';
import { memorialDeletionRepository as repo } from './repository.ts';

/** Removes a deleted memorial once its 30 days have passed (payload: memorialId). */
export const MEMORIAL_PURGE_JOB = 'memorial.purge-deleted';

const DAY_MS = 24 * 3_600_000;

/**
 * An owner deletes a memorial (docs/privacy.md): it is hidden from everyone at once (the access check
 * treats it as missing, lists leave it out, the response cache sees the change), read-only, and every
 * owner is mailed; any owner restores it within DELETED_MEMORIAL_DAYS from "Verwijderde pagina's" on Mijn
 * Pagina's. Then MEMORIAL_PURGE_JOB deletes it; its media rows' delete trigger queues the files' removal,
 * and `memorial_removals` keeps that it happened (who, when), not what it held.
 */
export function memorialDeletionService(deps: Pick<Deps, 'db' | 'queue' | 'outbox' | 'config' | 'clock'>) {
  const { db, queue, outbox, config, clock } = deps;
  const access = memorialAccessService(db);

  return {
    async delete(caller: Caller, memorialId: string, input: MemorialDelete): Promise<MemorialDeleteResult> {
      await access.require(caller, memorialId, 'owner');
      if (caller.kind !== 'user') throw unauthorized();
      if (input.confirmation.trim().toUpperCase() !== MEMORIAL_DELETE_WORD)
        throw badRequest(`Typ ${MEMORIAL_DELETE_WORD} om te bevestigen.`, {
          confirmation: `Typ ${MEMORIAL_DELETE_WORD}`,
        });
      const now = clock.now();
      const removeAfter = new Date(now.getTime() + DELETED_MEMORIAL_DAYS * DAY_MS);
      const restoreUrl = `${config.APP_URL}${routes.myPages}#${DELETED_PAGES_ANCHOR}`;
      await db.transaction(async (tx) => {
        const m = await repo.markDeleted(tx, memorialId, now, caller.userId, removeAfter);
        if (!m) throw memorialNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.deleted',
          details: { removeAfter: removeAfter.toISOString() },
        });
        await queue.enqueue(
          tx,
          MEMORIAL_PURGE_JOB,
          { memorialId },
          { delayMs: removeAfter.getTime() - Date.now(), maxAttempts: 10 },
        );
        for (const o of await repo.owners(tx, memorialId)) {
          await outbox.enqueue(
            tx,
            deletedMail({
              to: o.email,
              ownerName: o.name,
              actorName: caller.name ?? null,
              subjectName: `${m.first_name} ${m.last_name}`,
              removeAfter,
              restoreUrl,
            }),
          );
        }
      });
      queue.notify();
      return { deleted: true, removeAfter: removeAfter.toISOString() };
    },

    /** The deleted memorials the caller owns that can still be restored. */
    async listDeleted(caller: Caller): Promise<DeletedMemorials> {
      if (caller.kind !== 'user') throw unauthorized();
      const rows = await repo.deletedOwnedBy(db, caller.userId, clock.now());
      return {
        items: rows.map((r) => ({
          id: r.id,
          firstName: r.first_name,
          lastName: r.last_name,
          deletedAt: new Date(r.deleted_at).toISOString(),
          removeAfter: new Date(r.remove_after).toISOString(),
        })),
      };
    },

    /** An owner brings a deleted memorial back as it was (its status before the deletion). */
    async restore(caller: Caller, memorialId: string): Promise<MemorialRestoreResult> {
      if (caller.kind !== 'user') throw unauthorized();
      if (!/^[0-9a-f-]{36}$/i.test(memorialId)) throw memorialNotFound();
      await db.transaction(async (tx) => {
        const row = await repo.lockDeletedOwnedBy(tx, memorialId, caller.userId);
        // Not deleted, not theirs to restore, or gone: as missing.
        if (!row) throw memorialNotFound();
        if (new Date(row.remove_after).getTime() <= clock.now().getTime())
          throw new AppError(
            410,
            'MEMORIAL_REMOVED',
            'De 30 dagen zijn voorbij: deze pagina wordt definitief verwijderd en kan niet meer worden teruggezet.',
          );
        await repo.restore(tx, memorialId);
        await recordAudit(tx, { memorialId, actor: caller, action: 'memorial.restored' });
      });
      return { restored: true, id: memorialId };
    },
  };
}

/** The scheduled removal: a job that runs early waits again; a restored memorial is left alone. */
export function registerMemorialDeletionJobs(deps: Pick<Deps, 'db' | 'queue' | 'clock'>) {
  const { db, queue, clock } = deps;
  const purge = handle(idJob(MEMORIAL_PURGE_JOB, 'system', 'memorialId', 10), async ({ memorialId }) => {
    const removeAfter = await repo.removeAfter(db, memorialId);
    if (!removeAfter) return;
    const wait = new Date(removeAfter).getTime() - clock.now().getTime();
    if (wait > 0) {
      await queue.enqueue(db, MEMORIAL_PURGE_JOB, { memorialId }, { delayMs: wait, maxAttempts: 10 });
      return;
    }
    await db.transaction(async (tx) => {
      // That it happened, by whom and when; nothing of what it held.
      if (!(await repo.recordRemoval(tx, memorialId))) return;
      // Its media rows go with it; their delete trigger queues the removal of the files (modules/media/jobs.ts).
      await repo.remove(tx, memorialId);
    });
  });
  registerJobs(queue, [purge]);
}
