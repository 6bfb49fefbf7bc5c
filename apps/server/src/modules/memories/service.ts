import {
  FORMER_MEMBER_NAME,
  memoryManagedStatuses,
  roleAtLeast,
  type LovedBy,
  type Memory,
  type memoryPageSchema,
  type MemoryStatus,
  type memoryCreateSchema,
  type memoryManageQuerySchema,
  type memoryOwnQuerySchema,
  type memoryPrivacyUpdateSchema,
  type memoryStatusUpdateSchema,
  type memoryUpdateSchema,
  type memoryWallQuerySchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { preSerialized } from '../../lib/schemas.ts';
import { badRequest, forbidden, unauthorized } from '../../lib/errors.ts';
import type { MediaUrlSigner } from '../../lib/media/url-signer.ts';
import { recordAudit } from '../../shared/audit.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';
import type { MediaRow } from '../../shared/media-rows.ts';
import {
  accessFromRow,
  memorialAccessService,
  memorialNotFound,
  requireAccess,
  type MemorialAccess,
} from '../../shared/memorial-access.ts';
import { clampLimit, isUuid, toPage } from '../../shared/pagination.ts';
import { timeIdCursor } from '../../shared/cursor.ts';
import { invalidTransition, memoryNotFound } from '../../shared/errors.ts';
import { canDeleteMemory, canEditMemory, canSeeMemory, isMemoryAuthor } from '../../shared/memory-policy.ts';
import {
  memoriesRepository,
  memoryForgetting,
  type MemoryRow,
  type OwnMemoryRow,
  type WallCardRow,
} from './repository.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { planPolicy } from '../../shared/plans.ts';
import { DEFAULT_TRIAL_DAYS } from '@aandenken/contract';
import { cardKeyOf, cardOf, fromCard } from './cards.ts';
import { lovedBy, toMemory, viewerOf } from './presentation.ts';

export function memoryService({
  db,
  signer,
  log,
  trialDays = DEFAULT_TRIAL_DAYS,
}: {
  db: Db;
  signer: MediaUrlSigner;
  log?: { warn(o: object, msg: string): void };
  /** TRIAL_DAYS: a memorial's trial length (docs/plans.md). */
  trialDays?: number;
}) {
  const access = memorialAccessService(db);
  const plan = planPolicy({ trialDays });
  const repo = memoriesRepository(db);

  /** One page of rows with their media: one more statement, whatever the page size. */
  async function toMemories(caller: Caller, acc: MemorialAccess, rows: MemoryRow[]) {
    const mediaRows = await repo.listMediaByMemoryIds(rows.map((r) => r.id));
    const byMemory = new Map<string, MediaRow[]>();
    for (const m of mediaRows) byMemory.set(m.memory_id!, [...(byMemory.get(m.memory_id!) ?? []), m]);
    const urls = await signer.urls();
    return (r: MemoryRow) => toMemory(caller, acc, r, byMemory.get(r.id) ?? [], urls);
  }

  const cardKey = cardKeyOf(signer);

  /** Authorization for one memory: its memorial and the memory itself must be visible to the caller. */
  async function requireVisible(caller: Caller, id: string) {
    const facts = isUuid(id) ? await repo.findFacts(id) : undefined;
    if (!facts) throw memoryNotFound();
    const acc = await access.resolve(caller, facts.memorialId);
    if (!acc?.role || !canSeeMemory(caller, acc, facts)) throw memoryNotFound();
    return { facts, acc };
  }

  async function load(caller: Caller, acc: MemorialAccess, id: string): Promise<Memory> {
    const row = await repo.findById(id, viewerOf(caller));
    if (!row) throw memoryNotFound();
    return (await toMemories(caller, acc, [row]))(row);
  }

  return {
    /** A draft by a contributor or better, or by a guest (invited, or with the access code). */
    async createConcept(caller: Caller, input: z.output<typeof memoryCreateSchema>): Promise<Memory> {
      const acc = await access.require(caller, input.memorialId, 'guest');
      if (acc.status === 'archived') throw memorialArchived();
      // Nothing new on a read-only page, and no writing in vain when the plan's memories are used up.
      await plan.requireMemoryRoom(db, input.memorialId);
      const authorName =
        caller.kind === 'guest'
          ? (input.authorName ?? caller.guestName ?? null)
          : caller.kind === 'user'
            ? caller.name
            : null;
      if (caller.kind === 'guest' && !authorName)
        throw badRequest('Vul je naam in.', { authorName: 'Vul je naam in' });
      const id = await repo.insert(db, {
        memorialId: input.memorialId,
        yearLabel: input.yearLabel,
        body: input.text,
        membersOnly: input.membersOnly,
        authorKind: caller.kind === 'guest' ? 'guest' : 'user',
        authorUserId: caller.kind === 'user' ? caller.userId : null,
        authorGuestTokenId: caller.kind === 'guest' ? caller.tokenId : null,
        authorName,
      });
      return load(caller, acc, id);
    },

    /** The author, or an editor/owner. A guest's change to a published memory goes back for approval. */
    async update(caller: Caller, input: z.output<typeof memoryUpdateSchema>): Promise<Memory> {
      const { facts, acc } = await requireVisible(caller, input.id);
      if (!canEditMemory(caller, acc, facts))
        throw forbidden('Alleen de schrijver of een redacteur kan deze herinnering wijzigen.');
      const author = isMemoryAuthor(caller, facts);
      const backToModeration =
        author && facts.status === 'published' && !roleAtLeast(acc.role, 'contributor');
      await db.transaction(async (tx) => {
        await repo.update(tx, input.id, {
          yearLabel: input.yearLabel,
          body: input.text,
          status: backToModeration ? 'pending' : undefined,
        });
        if (!author) {
          await recordAudit(tx, {
            memorialId: facts.memorialId,
            actor: caller,
            action: 'memory.edited',
            targetType: 'memory',
            targetId: input.id,
          });
        }
      });
      return load(caller, acc, input.id);
    },

    /**
     * The author publishes their concept (or resubmits a rejected memory): published right away when
     * they may publish (contributor, editor, owner), otherwise pending until a moderator decides.
     */
    async publish(caller: Caller, id: string): Promise<Memory> {
      const { facts, acc } = await requireVisible(caller, id);
      if (!isMemoryAuthor(caller, facts) || !roleAtLeast(acc.role, 'guest')) {
        throw forbidden('Alleen de schrijver kan deze herinnering publiceren.');
      }
      if (facts.status !== 'concept' && facts.status !== 'rejected') {
        throw invalidTransition('Deze herinnering is al gepubliceerd of wacht op goedkeuring.');
      }
      if (acc.status === 'archived') throw memorialArchived();
      const next: MemoryStatus = roleAtLeast(acc.role, 'contributor') ? 'published' : 'pending';
      await db.transaction(async (tx) => {
        if (next === 'published') await plan.requireMemoryRoom(tx, facts.memorialId, true);
        else await plan.requireWritable(tx, facts.memorialId);
        await repo.setStatus(tx, id, next, null);
        await recordAudit(tx, {
          memorialId: facts.memorialId,
          actor: caller,
          action: next === 'published' ? 'memory.published' : 'memory.submitted',
          targetType: 'memory',
          targetId: id,
        });
      });
      return load(caller, acc, id);
    },

    /** Moderation by editors and owners: approve or reject (also take down, or restore a rejected one). */
    async moderate(caller: Caller, input: z.output<typeof memoryStatusUpdateSchema>): Promise<Memory> {
      const { facts, acc } = await requireVisible(caller, input.id);
      if (!roleAtLeast(acc.role, 'editor'))
        throw forbidden('Alleen redacteuren en eigenaren kunnen herinneringen goedkeuren of afwijzen.');
      if (facts.status === 'concept')
        throw invalidTransition('Een concept kan pas worden beoordeeld als de schrijver het indient.');
      if (facts.status !== input.status) {
        await db.transaction(async (tx) => {
          if (input.status === 'published') await plan.requireMemoryRoom(tx, facts.memorialId, true);
          await repo.setStatus(tx, input.id, input.status, caller.kind === 'user' ? caller.userId : null);
          await recordAudit(tx, {
            memorialId: facts.memorialId,
            actor: caller,
            action: input.status === 'published' ? 'memory.approved' : 'memory.rejected',
            targetType: 'memory',
            targetId: input.id,
            details: { from: facts.status, to: input.status },
          });
        });
      }
      return load(caller, acc, input.id);
    },

    /** Members only or not: the author, or an editor/owner. */
    async setPrivacy(caller: Caller, input: z.output<typeof memoryPrivacyUpdateSchema>): Promise<Memory> {
      const { facts, acc } = await requireVisible(caller, input.id);
      if (!canEditMemory(caller, acc, facts))
        throw forbidden('Alleen de schrijver of een redacteur kan dit wijzigen.');
      if (facts.membersOnly !== input.membersOnly) {
        await db.transaction(async (tx) => {
          await repo.setMembersOnly(tx, input.id, input.membersOnly);
          await recordAudit(tx, {
            memorialId: facts.memorialId,
            actor: caller,
            action: 'memory.privacy_changed',
            targetType: 'memory',
            targetId: input.id,
            details: { membersOnly: input.membersOnly },
          });
        });
      }
      return load(caller, acc, input.id);
    },

    /** The author, or an editor/owner. Its photos go with it (their files are removed in the background). */
    async remove(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
      const { facts, acc } = await requireVisible(caller, id);
      if (!canDeleteMemory(caller, acc, facts))
        throw forbidden('Alleen de schrijver of een redacteur kan deze herinnering verwijderen.');
      await db.transaction(async (tx) => {
        await repo.delete(tx, id);
        await recordAudit(tx, {
          memorialId: facts.memorialId,
          actor: caller,
          action: 'memory.deleted',
          targetType: 'memory',
          targetId: id,
          details: { status: facts.status },
        });
      });
      return { id, deleted: true };
    },

    async get(caller: Caller, id: string): Promise<Memory> {
      const { acc } = await requireVisible(caller, id);
      return load(caller, acc, id);
    },

    /**
     * The wall: published memories the caller may see, newest first, from their cards (`fromCard`). Those
     * without a card in the current format, or with the caller's own photos in them, are read in full and
     * presented for the caller, and the cards made on the way are kept. A page whose memories all have
     * cards takes one statement; any other at most three, whatever the page size.
     */
    async wall(
      caller: Caller,
      input: z.output<typeof memoryWallQuerySchema>,
    ): Promise<z.output<typeof memoryPageSchema>> {
      if (!isUuid(input.memorialId)) throw memorialNotFound();
      const limit = input.limit;
      const viewer = viewerOf(caller);
      const key = await cardKey();
      const page = await repo.wallPage(input.memorialId, {
        viewer,
        after: timeIdCursor(input.cursor),
        limit: limit + 1,
        cardKey: key,
      });
      const acc = requireAccess(accessFromRow(caller, input.memorialId, page.access), 'visitor');
      const urls = await signer.urls();
      const json = new Map<string, string>();
      const rest: WallCardRow[] = [];
      for (const row of page.rows.slice(0, limit)) {
        if (row.card !== null && !row.own_media) json.set(row.id, fromCard(caller, acc, row, row.card, urls));
        else rest.push(row);
      }
      if (rest.length > 0) {
        const missing = new Set(rest.filter((r) => r.card === null).map((r) => r.id));
        const made: { id: string; card: string; version: string }[] = [];
        for (const row of await repo.wallRows(
          rest.map((r) => r.id),
          viewer,
        )) {
          json.set(row.id, JSON.stringify(toMemory(caller, acc, row, row.media, urls)));
          if (missing.has(row.id))
            made.push({ id: row.id, card: cardOf(row, urls), version: row.card_version });
        }
        // A card that could not be kept is made again next time; the answer does not depend on it.
        if (made.length > 0)
          await repo
            .storeCards(key, made)
            .catch((err: unknown) => log?.warn({ err }, 'memory cards not kept'));
      }
      const { items, nextCursor } = toPage(
        page.rows,
        limit,
        (r) => json.get(r.id),
        (r) => [r.cursor_ts, r.id],
      );
      // A memory deleted between the two reads is left out.
      const memories = items.filter((m) => m !== undefined).join(',');
      return preSerialized<z.output<typeof memoryPageSchema>>(
        `{"items":[${memories}],"nextCursor":${JSON.stringify(nextCursor)}}`,
      );
    },

    /** For editors and owners: pending, published and rejected memories (or one status), with counts. */
    async manage(caller: Caller, input: z.output<typeof memoryManageQuerySchema>) {
      const acc = await access.require(caller, input.memorialId, 'editor');
      const limit = clampLimit(input.limit);
      const rows = await repo.manage(input.memorialId, {
        viewer: viewerOf(caller),
        statuses: input.status ? [input.status] : [...memoryManagedStatuses],
        after: timeIdCursor(input.cursor),
        limit: limit + 1,
      });
      const present = await toMemories(caller, acc, rows.slice(0, limit));
      const counts = await repo.statusCounts(input.memorialId);
      return { ...toPage(rows, limit, present, (r) => [r.cursor_ts, r.id]), counts };
    },

    /** The caller's own memories in every status: on one memorial, or (signed in) on all of theirs. */
    async own(caller: Caller, input: z.output<typeof memoryOwnQuerySchema>) {
      if (caller.kind === 'anonymous') throw unauthorized();
      const memorialId = input.memorialId ?? (caller.kind === 'guest' ? caller.memorialId : null);
      const single = memorialId ? await access.require(caller, memorialId, 'guest') : null;
      const limit = clampLimit(input.limit);
      const rows = await repo.own({
        viewer: viewerOf(caller),
        memorialId,
        after: timeIdCursor(input.cursor),
        limit: limit + 1,
      });
      const kept = rows.slice(0, limit);
      // Across memorials the rows carry the caller's standing on each (the query keeps only memorials
      // they are a member of), so no lookup per memorial is needed.
      const accessOf = (r: OwnMemoryRow): MemorialAccess =>
        single ?? {
          memorialId: r.memorial_id,
          status: r.memorial_status,
          visibility: r.memorial_visibility,
          role: r.member_role,
        };
      const mediaRows = await repo.listMediaByMemoryIds(kept.map((r) => r.id));
      const byMemory = new Map<string, MediaRow[]>();
      for (const m of mediaRows) byMemory.set(m.memory_id!, [...(byMemory.get(m.memory_id!) ?? []), m]);
      const urls = await signer.urls();
      return toPage(
        rows,
        limit,
        (r) => toMemory(caller, accessOf(r), r, byMemory.get(r.id) ?? [], urls),
        (r) => [r.cursor_ts, r.id],
      );
    },

    /** Members and guests may love a published memory they can see; visitors of a public page may not. */
    async love(caller: Caller, id: string, loved: boolean): Promise<{ id: string; lovedBy: LovedBy }> {
      const { facts, acc } = await requireVisible(caller, id);
      if (facts.status !== 'published')
        throw invalidTransition('Alleen gepubliceerde herinneringen kun je mooi vinden.');
      if (!roleAtLeast(acc.role, 'guest') || caller.kind === 'anonymous') {
        throw forbidden('Alleen leden en gasten van deze pagina kunnen een herinnering mooi vinden.');
      }
      const viewer = viewerOf(caller);
      if (loved) await repo.love(id, viewer, caller.kind === 'user' ? caller.name : caller.guestName);
      else await repo.unlove(id, viewer);
      const row = (await repo.findById(id, viewer))!;
      return { id, lovedBy: lovedBy(row) };
    },
  };
}
export type MemoryService = ReturnType<typeof memoryService>;

/**
 * What a deleted account left on memorials stays, from "een voormalig lid"; its concepts (seen by nobody else)
 * go. Memories left as a visitor with the address: unconfirmed ones go, confirmed ones stay without it.
 */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await memoryForgetting.authoredBy(tx, person.userId, FORMER_MEMBER_NAME);
  if (person.email !== '') await memoryForgetting.leftAsVisitor(tx, person.email);
};
