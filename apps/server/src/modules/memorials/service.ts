import {
  BIOGRAPHY_MAX_CHARS,
  errorCodes,
  memorialStatusLabels,
  memorialStatusTransitions,
  roleAtLeast,
  type Biography,
  type DeceasedNames,
  type Memorial,
  type MemorialAccessRole,
  type memorialPartOfQuerySchema,
  type memorialQuerySchema,
  type memorialUpdateSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import { planPolicy } from '../../shared/plans.ts';
import { DEFAULT_TRIAL_DAYS } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, memorialNotFound } from '../../shared/memorial-access.ts';
import { accessCodeCrypto, type AccessCodeCrypto } from '../../shared/access-code.ts';
import { clampLimit, decodeCursor, isUuid, toPage } from '../../shared/pagination.ts';
import { isoOrNull } from '../../shared/time.ts';
import { memorialRepository, toSummary, type MemorialPatch, type MemorialRow } from './repository.ts';
import { sanitizeBiography } from '../../shared/sanitize-biography.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

const CODE_ATTEMPTS = 8;

/** Thrown inside a transaction to roll it back when a concurrent request already used the idempotency key. */
class IdempotentReplay extends Error {}

export function memorialService(
  deps: Pick<Deps, 'db'> & { codes?: AccessCodeCrypto; config?: Pick<Deps['config'], 'TRIAL_DAYS'> },
) {
  const { db } = deps;
  const plan = planPolicy({ trialDays: deps.config?.TRIAL_DAYS ?? DEFAULT_TRIAL_DAYS });
  const repo = memorialRepository(db);
  const access = memorialAccessService(db);
  const codes = deps.codes ?? accessCodeCrypto(db);

  async function toMemorial(row: MemorialRow, role: MemorialAccessRole): Promise<Memorial> {
    const manager = roleAtLeast(role, 'editor');
    return {
      ...toSummary(row),
      role,
      // An invite-only page has no code that works, so none is shown.
      accessCode: manager && !row.invite_only ? await codes.decrypt(row.access_code_encrypted) : null,
      accessCodeVersion: manager ? row.access_code_version : null,
      inviteOnly: row.invite_only,
      searchEngines: row.search_engines,
      visitorMemories: row.visitor_memories,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
      caredBy: row.cared_by ?? null,
    };
  }

  async function load(q: Queryable, id: string, role: MemorialAccessRole) {
    const row = await repo.findById(q, id);
    if (!row) throw memorialNotFound();
    return toMemorial(row, role);
  }

  /** Access-code candidates, prepared before a transaction (the keys may need loading; PGlite has one connection). */
  const prepareCodes = () =>
    Promise.all(
      Array.from({ length: CODE_ATTEMPTS }, async () => {
        const code = codes.generate();
        return { code, codeHash: await codes.hash(code), codeEncrypted: await codes.encrypt(code) };
      }),
    );
  /** Inserts a concept with the first free candidate code. */
  async function insertWithCode(
    tx: Queryable,
    candidates: Awaited<ReturnType<typeof prepareCodes>>,
    m: { firstName: string; lastName: string; createdBy: string },
  ) {
    for (const candidate of candidates) {
      const memorialId = await repo.insertConcept(tx, { ...m, ...candidate });
      if (memorialId) return memorialId;
    }
    throw new Error('no free access code after several attempts');
  }

  /**
   * Gives the page the first free candidate as its new code, inside the caller's transaction after its
   * own checks, and logs it. The version bump makes every guest token issued with an earlier code, and
   * every one-time link made under it, invalid. Also a family's handover (companies/partner-service.ts).
   */
  async function replaceAccessCodeIn(
    tx: Queryable,
    caller: Caller,
    memorialId: string,
    candidates: Awaited<ReturnType<typeof prepareCodes>>,
    details: Record<string, unknown> = {},
  ) {
    await repo.lock(tx, memorialId);
    for (const c of candidates) {
      const version = await repo.replaceAccessCode(tx, memorialId, c.codeHash, c.codeEncrypted);
      if (version == null) continue;
      await recordAudit(tx, {
        memorialId,
        actor: caller,
        action: 'memorial.access_code_regenerated',
        details: { version, ...details },
      });
      return { memorialId, accessCode: c.code, accessCodeVersion: version };
    }
    throw new AppError(
      409,
      errorCodes.conflict,
      'Er kon geen nieuwe toegangscode worden gemaakt. Probeer het opnieuw.',
    );
  }

  return {
    prepareCodes,
    /**
     * A concept made inside another feature's transaction, with the same rules as a family's (names,
     * dates in order, a fresh access code), without an owner: a funeral company's page for a family
     * (modules/companies/partner-service.ts), whose owner is the family once it accepts.
     */
    async insertConceptIn(
      tx: Queryable,
      candidates: Awaited<ReturnType<typeof prepareCodes>>,
      m: {
        firstName: string;
        lastName: string;
        birthDate: string | null;
        deathDate: string | null;
        createdBy: string;
      },
    ): Promise<string> {
      if (m.birthDate && m.deathDate && m.birthDate > m.deathDate)
        throw badRequest('Controleer je invoer: Overlijdensdatum ligt voor de geboortedatum', {
          deathDate: 'Overlijdensdatum ligt voor de geboortedatum',
        });
      const id = await insertWithCode(tx, candidates, m);
      if (m.birthDate || m.deathDate)
        await repo.update(tx, id, { birth_date: m.birthDate, death_date: m.deathDate });
      return id;
    },
    /**
     * Creates a concept with the caller as owner and a fresh access code. With an idempotency key, the
     * same user and key within 24 hours return the memorial of the first request.
     */
    async createConcept(
      caller: Caller,
      names: DeceasedNames,
      idempotencyKey?: string,
    ): Promise<{ id: string; replayed: boolean }> {
      if (caller.kind !== 'user') throw unauthorized();
      if (idempotencyKey) {
        const earlier = await repo.findIdempotent(caller.userId, idempotencyKey);
        if (earlier) return { id: earlier, replayed: true };
      }
      // Prepared before the transaction: the keys may need loading, and PGlite has one connection.
      const candidates = await prepareCodes();
      try {
        const id = await db.transaction(async (tx) => {
          const memorialId = await insertWithCode(tx, candidates, {
            firstName: names.firstName,
            lastName: names.lastName,
            createdBy: caller.userId,
          });
          const memberId = await repo.insertMember(tx, memorialId, caller.userId, 'owner');
          if (
            idempotencyKey &&
            !(await repo.claimIdempotencyKey(tx, caller.userId, idempotencyKey, memorialId))
          ) {
            throw new IdempotentReplay();
          }
          await recordAudit(tx, {
            memorialId,
            actor: caller,
            action: 'memorial.created',
            targetType: 'member',
            targetId: memberId,
            details: { status: 'concept' },
          });
          return memorialId;
        });
        if (idempotencyKey && Math.random() < 0.01) await repo.pruneIdempotencyKeys();
        return { id, replayed: false };
      } catch (err) {
        if (!(err instanceof IdempotentReplay) || !idempotencyKey) throw err;
        const earlier = await repo.findIdempotent(caller.userId, idempotencyKey);
        if (!earlier) throw err;
        return { id: earlier, replayed: true };
      }
    },

    /**
     * The page at a readable address (current or earlier), for a caller who may see it; like `get`, a page
     * the caller may not see is a 404, the same as an address that does not exist.
     */
    async bySlug(caller: Caller, slug: string): Promise<{ id: string; slug: string }> {
      const found = /^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) ? await repo.findBySlug(slug) : undefined;
      if (!found) throw memorialNotFound();
      await access.require(caller, found.id, 'visitor');
      return found;
    },

    async get(caller: Caller, id: string): Promise<Memorial> {
      const { role } = await access.require(caller, id, 'visitor');
      return load(db, id, role!);
    },

    /** Changes only the fields sent. Owners and editors; status follows memorialStatusTransitions. */
    async update(caller: Caller, input: z.output<typeof memorialUpdateSchema>): Promise<Memorial> {
      await access.require(caller, input.id, 'editor');
      await codes.preload();
      return db.transaction(async (tx) => {
        const { role } = await memorialAccessService(tx).require(caller, input.id, 'editor');
        const current = await repo.lock(tx, input.id);
        if (!current) throw memorialNotFound();
        const before = (await repo.findById(tx, input.id))!;

        const birth = input.birthDate !== undefined ? input.birthDate : current.birth_date;
        const death = input.deathDate !== undefined ? input.deathDate : current.death_date;
        if (birth && death && birth > death) {
          throw badRequest('Controleer je invoer: Overlijdensdatum ligt voor de geboortedatum', {
            deathDate: 'Overlijdensdatum ligt voor de geboortedatum',
          });
        }
        if (
          input.status &&
          input.status !== current.status &&
          !memorialStatusTransitions[current.status].includes(input.status)
        ) {
          throw new AppError(
            409,
            'INVALID_STATUS_TRANSITION',
            `Een pagina met status ${memorialStatusLabels[current.status].toLowerCase()} kan niet naar ${memorialStatusLabels[input.status].toLowerCase()}.`,
            { status: 'Deze statuswijziging is niet toegestaan' },
          );
        }

        if (input.coverMediaId && !(await repo.isGalleryImage(tx, input.id, input.coverMediaId))) {
          throw badRequest('Kies als omslagfoto een foto uit de galerij van deze pagina.', {
            coverMediaId: 'Deze foto staat niet in de galerij van deze pagina',
          });
        }

        const wanted: MemorialPatch = {
          first_name: input.firstName,
          last_name: input.lastName,
          birth_date: input.birthDate,
          death_date: input.deathDate,
          birth_place: input.birthPlace,
          death_place: input.deathPlace,
          quote: input.quote,
          cover_media_id: input.coverMediaId,
          status: input.status,
          visibility: input.visibility,
          invite_only: input.inviteOnly,
          search_engines: input.searchEngines,
          visitor_memories: input.visitorMemories,
        };
        const patch: MemorialPatch = {};
        const changes: Record<string, { from: unknown; to: unknown }> = {};
        for (const [col, value] of Object.entries(wanted) as [keyof MemorialPatch, unknown][]) {
          if (value === undefined || before[col] === value) continue;
          (patch as Record<string, unknown>)[col] = value;
          changes[col] = { from: before[col], to: value };
        }
        if (Object.keys(patch).length === 0) return toMemorial(before, role!);
        await repo.update(tx, input.id, patch);

        const {
          status,
          visibility,
          invite_only: inviteOnly,
          search_engines: searchEngines,
          visitor_memories: visitorMemories,
          ...details
        } = changes;
        if (visitorMemories) {
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action: 'memorial.visitor_memories_changed',
            details: { from: visitorMemories.from, to: visitorMemories.to },
          });
        }
        if (searchEngines) {
          // Whether the page shows up in search engines, with the deceased's name, is the family's own choice.
          if (role !== 'owner') {
            throw forbidden('Alleen de eigenaar bepaalt of de pagina via zoekmachines te vinden is.');
          }
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action: 'memorial.search_engines_changed',
            details: { from: searchEngines.from, to: searchEngines.to },
          });
        }
        if (inviteOnly) {
          // Whether a code opens the page at all is the owner's decision, not an editor's.
          if (role !== 'owner') {
            throw forbidden('Alleen de eigenaar bepaalt of de pagina alleen op uitnodiging te openen is.');
          }
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action: 'memorial.invite_only_changed',
            details: { from: inviteOnly.from, to: inviteOnly.to },
          });
        }
        if (status) {
          const action =
            status.to === 'active' && status.from === 'concept'
              ? 'memorial.published'
              : `memorial.${status.to === 'archived' ? 'archived' : 'reactivated'}`;
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action,
            details: { from: status.from, to: status.to },
          });
        }
        if (visibility) {
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action: 'memorial.visibility_changed',
            details: { from: visibility.from, to: visibility.to },
          });
        }
        if (Object.keys(details).length > 0) {
          await recordAudit(tx, {
            memorialId: input.id,
            actor: caller,
            action: 'memorial.details_updated',
            details: { changes: details },
          });
        }
        return load(tx, input.id, role!);
      });
    },

    async listPublic(input: z.output<typeof memorialQuerySchema>) {
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string', 'string']) as [string, string] | null;
      if (after && !isUuid(after[1])) throw badRequest('Ongeldige cursor.', { cursor: 'Ongeldige cursor' });
      const rows = await repo.listPublic({ search: input.search, after, limit });
      return toPage(rows, limit, toSummary, (r) => [r.cursor_ts, r.id]);
    },

    async listPartOf(caller: Caller, input: z.output<typeof memorialPartOfQuerySchema>) {
      if (caller.kind !== 'user') throw unauthorized();
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string', 'string']) as [string, string] | null;
      if (after && !isUuid(after[1])) throw badRequest('Ongeldige cursor.', { cursor: 'Ongeldige cursor' });
      const rows = await repo.listPartOf({ userId: caller.userId, status: input.status, after, limit });
      return toPage(
        rows,
        limit,
        (r) => ({
          ...toSummary(r),
          role: r.role,
          memberId: r.member_id,
          joinedAt: new Date(r.joined_at).toISOString(),
        }),
        (r) => [r.cursor_ts, r.member_id],
      );
    },

    async getBiography(caller: Caller, memorialId: string): Promise<Biography> {
      await access.require(caller, memorialId, 'visitor');
      const bio = await repo.getBiography(memorialId);
      if (!bio) throw memorialNotFound();
      return { memorialId, html: bio.html, updatedAt: isoOrNull(bio.updated_at), updatedBy: bio.updated_by };
    },

    /** Sanitised with a strict allow-list before it is stored; what is stored is what is served. */
    async setBiography(caller: Caller, memorialId: string, html: string): Promise<Biography> {
      await access.require(caller, memorialId, 'editor');
      const clean = sanitizeBiography(html);
      if (clean.length > BIOGRAPHY_MAX_CHARS) {
        throw badRequest(
          `Het levensverhaal is te lang (maximaal ${BIOGRAPHY_MAX_CHARS} tekens opmaak inbegrepen).`,
          {
            html: `Levensverhaal mag maximaal ${BIOGRAPHY_MAX_CHARS} tekens zijn`,
          },
        );
      }
      await db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        await repo.lock(tx, memorialId);
        await plan.requireWritable(tx, memorialId);
        await repo.setBiography(tx, memorialId, clean, caller.kind === 'user' ? caller.userId : null);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'memorial.biography_updated',
          details: { length: clean.length, removedMarkup: clean.length !== html.trim().length },
        });
      });
      const bio = (await repo.getBiography(memorialId))!;
      return { memorialId, html: bio.html, updatedAt: isoOrNull(bio.updated_at), updatedBy: bio.updated_by };
    },

    /** A new code; the version bump makes every guest token issued with an earlier code invalid. */
    async regenerateAccessCode(caller: Caller, memorialId: string) {
      await access.require(caller, memorialId, 'editor');
      const candidates = await prepareCodes();
      return db.transaction(async (tx) => {
        await memorialAccessService(tx).require(caller, memorialId, 'editor');
        return replaceAccessCodeIn(tx, caller, memorialId, candidates);
      });
    },
    replaceAccessCodeIn,
  };
}
export type MemorialService = ReturnType<typeof memorialService>;

/** A memorial left without members (its last one deleted their account): archived, removed after `removeAfter`. */
export async function archiveOrphaned(tx: Queryable, memorialId: string, removeAfter: Date) {
  await memorialRepository(tx).archiveOrphan(tx, memorialId, removeAfter);
  await recordAudit(tx, {
    memorialId,
    actor: null,
    action: 'memorial.orphaned',
    details: { reason: 'account_deleted', removeAfter: removeAfter.toISOString() },
  });
}

/** When the orphaned memorial is due for removal; undefined when it is gone or found a member again. */
export const orphanedRemoveAfter = (db: Queryable, memorialId: string) =>
  memorialRepository(db).orphanRemoveAfter(memorialId);

/** Removes the orphaned memorial, unless it found a member again. */
export const removeOrphaned = (db: Queryable, memorialId: string) =>
  memorialRepository(db).removeOrphan(memorialId);

/** A deleted account's keys for creating a memorial once go. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await memorialRepository(tx).forgetIdempotencyKeys(tx, person.userId);
};
