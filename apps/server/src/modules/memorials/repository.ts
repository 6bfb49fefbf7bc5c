import type { MemorialStatus, MemorialSummary, MemorialVisibility, MemberRole } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { isoOrNull } from '../../shared/time.ts';

export interface MemorialRow {
  id: string;
  slug: string;
  search_engines: boolean;
  visitor_memories: boolean;
  first_name: string;
  last_name: string;
  birth_date: string | null;
  death_date: string | null;
  birth_place: string | null;
  death_place: string | null;
  quote: string | null;
  cover_media_id: string | null;
  status: MemorialStatus;
  visibility: MemorialVisibility;
  invite_only: boolean;
  access_code_encrypted: string;
  access_code_version: number;
  published_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  memory_count: number;
  media_count: number;
  candle_count: number;
  member_count: number;
  /** "Verzorgd door": the company that made the page, when the family shows it. */
  cared_by: { name: string; slug: string } | null;
  [key: string]: unknown;
}

/** Columns of a memorial with its counters; dates as text so no time zone can shift them. */
const memorialColumns = `
  m.id, m.slug, m.search_engines, m.visitor_memories, m.first_name, m.last_name,
  to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, to_char(m.death_date, 'YYYY-MM-DD') AS death_date,
  m.birth_place, m.death_place, m.quote, m.cover_media_id, m.status, m.visibility, m.invite_only,
  m.access_code_encrypted, m.access_code_version, m.published_at, m.created_at, m.updated_at,
  COALESCE(c.memory_count, 0)::int AS memory_count, COALESCE(c.media_count, 0)::int AS media_count,
  COALESCE(c.candle_count, 0)::int AS candle_count,
  (SELECT count(*)::int FROM memorial_members x WHERE x.memorial_id = m.id) AS member_count,
  (SELECT json_build_object('name', co.name, 'slug', co.slug) FROM memorial_care mc
     JOIN companies co ON co.id = mc.company_id AND co.state = 'active'
    WHERE mc.memorial_id = m.id AND mc.state = 'handed_over' AND mc.shown_publicly) AS cared_by`;
const memorialFrom = `FROM memorials m LEFT JOIN memorial_counts c ON c.memorial_id = m.id`;

export const toSummary = (r: MemorialRow): MemorialSummary => ({
  id: r.id,
  slug: r.slug,
  firstName: r.first_name,
  lastName: r.last_name,
  birthDate: r.birth_date,
  deathDate: r.death_date,
  birthPlace: r.birth_place,
  deathPlace: r.death_place,
  quote: r.quote,
  coverMediaId: r.cover_media_id,
  status: r.status,
  visibility: r.visibility,
  counts: {
    memories: r.memory_count,
    media: r.media_count,
    candles: r.candle_count,
    members: r.member_count,
  },
  publishedAt: isoOrNull(r.published_at),
});

/** Escapes LIKE wildcards so a search term matches literally. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface MemorialPatch {
  first_name?: string;
  last_name?: string;
  birth_date?: string | null;
  death_date?: string | null;
  birth_place?: string | null;
  death_place?: string | null;
  quote?: string | null;
  cover_media_id?: string | null;
  status?: MemorialStatus;
  visibility?: MemorialVisibility;
  invite_only?: boolean;
  search_engines?: boolean;
  visitor_memories?: boolean;
}

export function memorialRepository(db: Queryable) {
  return {
    /** Archived, to be removed after `removeAfter`: the memorial has no member left. */
    async archiveOrphan(q: Queryable, id: string, removeAfter: Date) {
      await q.query(
        `UPDATE memorials SET status = 'archived', remove_after = $2, updated_at = now() WHERE id = $1`,
        [id, removeAfter],
      );
    },

    /** When an archived memorial without members is due for removal; undefined when it is not (any more). */
    async orphanRemoveAfter(id: string): Promise<Date | string | undefined> {
      const { rows } = await db.query<{ remove_after: Date | string }>(
        `SELECT m.remove_after FROM memorials m WHERE m.id = $1::uuid AND m.status = 'archived'
            AND m.remove_after IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM memorial_members mm WHERE mm.memorial_id = m.id)`,
        [id],
      );
      return rows[0]?.remove_after;
    },

    /** Its media rows go with it; their delete trigger queues the removal of the files (modules/media/jobs.ts). */
    async removeOrphan(id: string) {
      await db.query(
        `DELETE FROM memorials m WHERE m.id = $1::uuid AND m.status = 'archived'
            AND NOT EXISTS (SELECT 1 FROM memorial_members mm WHERE mm.memorial_id = m.id)`,
        [id],
      );
    },

    async forgetIdempotencyKeys(q: Queryable, userId: string) {
      await q.query('DELETE FROM memorial_idempotency_keys WHERE user_id = $1', [userId]);
    },

    /** Inserts a concept; null when the access code's hash is already taken (the caller retries). */
    async insertConcept(
      q: Queryable,
      m: { firstName: string; lastName: string; createdBy: string; codeHash: string; codeEncrypted: string },
    ): Promise<string | null> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO memorials (first_name, last_name, created_by, access_code_hash, access_code_encrypted)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT memorials_access_code_hash_key DO NOTHING RETURNING id`,
        [m.firstName, m.lastName, m.createdBy, m.codeHash, m.codeEncrypted],
      );
      return rows[0]?.id ?? null;
    },

    async insertMember(q: Queryable, memorialId: string, userId: string, role: MemberRole): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        'INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, $3) RETURNING id',
        [memorialId, userId, role],
      );
      return rows[0]!.id;
    },

    /** The memorial created earlier with this key by this user, if within 24 hours. */
    async findIdempotent(userId: string, key: string): Promise<string | null> {
      const { rows } = await db.query<{ memorial_id: string }>(
        `SELECT memorial_id FROM memorial_idempotency_keys
          WHERE user_id = $1 AND idempotency_key = $2 AND created_at > now() - interval '24 hours'`,
        [userId, key],
      );
      return rows[0]?.memorial_id ?? null;
    },

    /** Claims the key for `memorialId`; false when a current claim by someone else's request exists. */
    async claimIdempotencyKey(
      q: Queryable,
      userId: string,
      key: string,
      memorialId: string,
    ): Promise<boolean> {
      const { rows } = await q.query(
        `INSERT INTO memorial_idempotency_keys (user_id, idempotency_key, memorial_id) VALUES ($1, $2, $3)
         ON CONFLICT ON CONSTRAINT memorial_idempotency_keys_pkey DO UPDATE
           SET memorial_id = EXCLUDED.memorial_id, created_at = now()
           WHERE memorial_idempotency_keys.created_at <= now() - interval '24 hours'
         RETURNING memorial_id`,
        [userId, key, memorialId],
      );
      return rows.length === 1;
    },

    async pruneIdempotencyKeys(): Promise<void> {
      await db.query(`DELETE FROM memorial_idempotency_keys WHERE created_at < now() - interval '2 days'`);
    },

    async findById(q: Queryable, id: string): Promise<MemorialRow | undefined> {
      const { rows } = await q.query<MemorialRow>(
        `SELECT ${memorialColumns} ${memorialFrom} WHERE m.id = $1`,
        [id],
      );
      return rows[0];
    },

    /**
     * The page at a readable address: its current slug, or an earlier one it had (then `slug` is the
     * current one). Deleted pages have none.
     */
    async findBySlug(slug: string): Promise<{ id: string; slug: string } | undefined> {
      const { rows } = await db.query<{ id: string; slug: string }>(
        `SELECT m.id, m.slug FROM memorials m WHERE m.slug = $1 AND m.deleted_at IS NULL
         UNION ALL
         SELECT m.id, m.slug FROM memorial_old_slugs o JOIN memorials m ON m.id = o.memorial_id
          WHERE o.slug = $1 AND m.deleted_at IS NULL
         LIMIT 1`,
        [slug],
      );
      return rows[0];
    },

    /** Locks the memorial row for the rest of the transaction (serialises changes to one memorial). */
    async lock(
      q: Queryable,
      id: string,
    ): Promise<{ status: MemorialStatus; birth_date: string | null; death_date: string | null } | undefined> {
      const { rows } = await q.query<{
        status: MemorialStatus;
        birth_date: string | null;
        death_date: string | null;
      }>(
        `SELECT status, to_char(birth_date, 'YYYY-MM-DD') AS birth_date, to_char(death_date, 'YYYY-MM-DD') AS death_date
           FROM memorials WHERE id = $1 FOR UPDATE`,
        [id],
      );
      return rows[0];
    },

    /** Whether a photo is in this memorial's own gallery (the only media that may be its cover). */
    async isGalleryImage(q: Queryable, memorialId: string, mediaId: string): Promise<boolean> {
      const { rows } = await q.query(
        `SELECT 1 FROM media WHERE id = $1 AND memorial_id = $2 AND memory_id IS NULL AND kind = 'image'`,
        [mediaId, memorialId],
      );
      return rows.length > 0;
    },
    async update(q: Queryable, id: string, patch: MemorialPatch): Promise<void> {
      const entries = Object.entries(patch).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return;
      const sets = entries.map(([col], i) => `${col} = $${i + 2}`);
      if (patch.status === 'active') sets.push('published_at = COALESCE(published_at, now())');
      await q.query(`UPDATE memorials SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, [
        id,
        ...entries.map(([, v]) => v),
      ]);
    },

    /** Public, published memorials, newest first; every word of `search` must occur in the name. */
    async listPublic(opts: { search?: string; after: [string, string] | null; limit: number }) {
      const words = (opts.search ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
      const params: unknown[] = [opts.limit + 1];
      const where = [`m.visibility = 'public'`, `m.status = 'active'`];
      for (const w of words) {
        params.push(`%${likeEscape(w)}%`);
        where.push(`(m.first_name || ' ' || m.last_name) ILIKE $${params.length}`);
      }
      if (opts.after) {
        params.push(opts.after[0], opts.after[1]);
        where.push(`(m.published_at, m.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      const { rows } = await db.query<MemorialRow & { cursor_ts: string }>(
        `SELECT ${memorialColumns}, m.published_at::text AS cursor_ts ${memorialFrom}
          WHERE ${where.join(' AND ')}
          ORDER BY m.published_at DESC, m.id DESC LIMIT $1`,
        params,
      );
      return rows;
    },

    /** The memorials `userId` is a member of, most recently joined first. */
    async listPartOf(opts: {
      userId: string;
      status?: MemorialStatus;
      after: [string, string] | null;
      limit: number;
    }) {
      const params: unknown[] = [opts.userId, opts.limit + 1];
      const where = ['mm.user_id = $1', 'm.deleted_at IS NULL'];
      if (opts.status) {
        params.push(opts.status);
        where.push(`m.status = $${params.length}`);
      }
      if (opts.after) {
        params.push(opts.after[0], opts.after[1]);
        where.push(`(mm.created_at, mm.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      const { rows } = await db.query<
        MemorialRow & { role: MemberRole; member_id: string; joined_at: Date | string; cursor_ts: string }
      >(
        `SELECT ${memorialColumns}, mm.role, mm.id AS member_id, mm.created_at AS joined_at, mm.created_at::text AS cursor_ts
           FROM memorial_members mm JOIN memorials m ON m.id = mm.memorial_id
           LEFT JOIN memorial_counts c ON c.memorial_id = m.id
          WHERE ${where.join(' AND ')}
          ORDER BY mm.created_at DESC, mm.id DESC LIMIT $2`,
        params,
      );
      return rows;
    },

    async getBiography(id: string) {
      const { rows } = await db.query<{
        html: string;
        updated_at: Date | string | null;
        updated_by: string | null;
      }>(
        `SELECT m.biography_html AS html, m.biography_updated_at AS updated_at, u.name AS updated_by
           FROM memorials m LEFT JOIN users u ON u.id = m.biography_updated_by WHERE m.id = $1`,
        [id],
      );
      return rows[0];
    },

    async setBiography(q: Queryable, id: string, html: string, userId: string | null) {
      await q.query(
        `UPDATE memorials SET biography_html = $2, biography_updated_at = now(), biography_updated_by = $3,
                updated_at = now() WHERE id = $1`,
        [id, html, userId],
      );
    },

    /** Replaces the access code; null when the new hash is taken (the caller retries with another code). */
    async replaceAccessCode(
      q: Queryable,
      id: string,
      codeHash: string,
      codeEncrypted: string,
    ): Promise<number | null> {
      const { rows } = await q.query<{ access_code_version: number }>(
        `UPDATE memorials SET access_code_hash = $2, access_code_encrypted = $3,
                access_code_version = access_code_version + 1, updated_at = now()
          WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM memorials o WHERE o.access_code_hash = $2)
          RETURNING access_code_version`,
        [id, codeHash, codeEncrypted],
      );
      return rows[0]?.access_code_version ?? null;
    },
  };
}
export type MemorialRepository = ReturnType<typeof memorialRepository>;
