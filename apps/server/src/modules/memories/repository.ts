import {
  MEMORY_LOVED_BY_INITIALS_MAX,
  type MemberRole,
  type MemorialStatus,
  type MemorialVisibility,
  type MemoryStatus,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { plannedOnce } from '../../db/routines.ts';
import { mediaColumns, memoryMediaJson, type MediaRow } from '../../shared/media-rows.ts';
import { memorialAccessSql, type MemorialAccessRow } from '../../shared/memorial-access.ts';
import { memoryFactsRepository } from '../../shared/memory-facts.ts';

export interface MemoryRow {
  id: string;
  memorial_id: string;
  year_label: string;
  body: string;
  status: MemoryStatus;
  members_only: boolean;
  author_kind: 'user' | 'guest';
  author_user_id: string | null;
  author_guest_token_id: string | null;
  author_display_name: string;
  /** A Date, or epoch milliseconds on the wall. */
  published_at: Date | number | null;
  created_at: Date | number;
  updated_at: Date | number;
  /** created_at as PostgreSQL text: exact (microseconds) for keyset cursors. */
  cursor_ts: string;
  love_count: number;
  loved_by_me: boolean;
  lover_names: (string | null)[];
  [key: string]: unknown;
}

/** A row of the caller's own memories, with their standing on its memorial (they are a member there). */
export interface OwnMemoryRow extends MemoryRow {
  memorial_status: MemorialStatus;
  memorial_visibility: MemorialVisibility;
  member_role: MemberRole | null;
}

/** Who is asking, for "loved by me" (params $1 and $2 of every select below). */
export interface Viewer {
  userId: string | null;
  guestTokenId: string | null;
}

/**
 * A timestamp as milliseconds since 1970 (a float; `iso` makes the API's text of it). Measured: cheaper for
 * PostgreSQL than `to_char`, and for the driver than parsing its timestamp text into a Date.
 */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * Whether the viewer ($1 user id, $2 guest token id) has a row in `table` for the memory `mo`: loved it, or
 * uploaded one of its photos. Skipped without a look when the memory's kept count says there is none.
 */
const viewerHas = (count: string, table: string, userColumn: string, guestColumn: string) =>
  `CASE WHEN mo.${count} = 0 OR ($1::text IS NULL AND $2::text IS NULL) THEN false
        ELSE EXISTS (SELECT 1 FROM ${table} x WHERE x.memory_id = mo.id
                        AND (x.${userColumn} = $1::text OR x.${guestColumn} = $2::text)) END`;

const selectWith = (
  extraColumns = '',
  extraJoins = '',
  times = 'mo.published_at, mo.created_at, mo.updated_at',
) => `
  SELECT ${extraColumns} mo.id, mo.memorial_id, mo.year_label, mo.body, mo.status, mo.members_only, mo.author_kind,
         mo.author_user_id, mo.author_guest_token_id,
         coalesce(u.name, mo.author_name, 'Onbekend') AS author_display_name,
         ${times}, mo.created_at::text AS cursor_ts,
         mo.love_count,
         ${viewerHas('love_count', 'memory_loves', 'user_id', 'guest_token_id')} AS loved_by_me,
         CASE WHEN mo.love_count = 0 THEN '{}'::text[]
              ELSE (SELECT array_agg(f.name ORDER BY f.created_at, f.id)
                      FROM (SELECT l.name, l.created_at, l.id FROM memory_loves l WHERE l.memory_id = mo.id
                             ORDER BY l.created_at, l.id LIMIT ${MEMORY_LOVED_BY_INITIALS_MAX}) f) END AS lover_names
    FROM memories mo
    LEFT JOIN users u ON u.id = mo.author_user_id ${extraJoins}`;
const select = selectWith();

/**
 * The wall's full rows (for memories whose card does not fit the caller, or has to be made): timestamps as
 * epoch milliseconds, each memory's media as JSON (a memory without media skips the lookup), and the card
 * version the row was read at. $1 user id, $2 guest token id, $3 the memories' ids.
 */
const WALL_FULL_SQL = `${selectWith(
  `CASE WHEN mo.media_count = 0 THEN '[]'::json ELSE ${memoryMediaJson('mo')} END AS media, mo.card_version,`,
  '',
  `${epochMs('mo.published_at')} AS published_at, ${epochMs('mo.created_at')} AS created_at,
         ${epochMs('mo.updated_at')} AS updated_at`,
)}
   WHERE mo.id = ANY($3::uuid[])`;

/** A full wall row: a memory row with its media, and the card version it was read at. */
export interface WallRow extends MemoryRow {
  media: MediaRow[];
  card_version: string;
}

/**
 * A row of a wall page: what decides whether the memory's card fits the caller, and the card (null when
 * there is none in the format `$7` names).
 */
export interface WallCardRow {
  [key: string]: unknown;
  id: string;
  cursor_ts: string;
  status: MemoryStatus;
  members_only: boolean;
  author_user_id: string | null;
  author_guest_token_id: string | null;
  loved_by_me: boolean;
  /** The caller uploaded one of its photos (their photo links would say so). */
  own_media: boolean;
  card: string | null;
}

const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * Newest-first keyset condition `(created_at, id) < (cursor)`, the first page when the cursor parameters
 * are null. Written without `$n IS NULL OR …` so that a prepared statement's generic plan still uses the
 * index for it (an OR would leave it a filter over every earlier row).
 */
export const keysetBefore = (t: string, ts: string, id: string) =>
  `(${t}.created_at, ${t}.id) < (coalesce(${ts}::timestamptz, 'infinity'), coalesce(${id}::uuid, '${MAX_UUID}'))`;

const viewerParams = (v: Viewer) => [v.userId, v.guestTokenId];

/**
 * A wall page in one statement, one round trip: the memorial's access row, with the page's memories
 * joined to it (newest first once `WALL_PAGE_SQL` orders them), each with its card and what decides whether the card fits the caller (see
 * `memoryService.wall`); one row with null memory columns when the page is empty, none when the memorial
 * does not exist. Members-only memories are included for signed-in members (and the viewer's own).
 * $1 user id, $2 guest token id, $3 memorial id, $4/$5 cursor (null: first page), $6 limit, $7 card key.
 */
const WALL_SQL = `SELECT a.status AS memorial_status, a.visibility AS memorial_visibility, a.member_role,
         w.id, w.created_at, w.cursor_ts, w.status, w.members_only, w.author_user_id, w.author_guest_token_id,
         w.loved_by_me, w.own_media, w.card
    FROM (${memorialAccessSql('$3', '$1::text')}) a
    LEFT JOIN LATERAL (
         SELECT mo.id, mo.created_at, mo.created_at::text AS cursor_ts, mo.status, mo.members_only,
                mo.author_user_id, mo.author_guest_token_id,
                ${viewerHas('love_count', 'memory_loves', 'user_id', 'guest_token_id')} AS loved_by_me,
                ${viewerHas('media_count', 'media', 'uploaded_by_user_id', 'uploaded_by_guest_token_id')} AS own_media,
                CASE WHEN mo.card_key = $7::text THEN mo.card END AS card
           FROM memories mo
          WHERE mo.memorial_id = $3 AND mo.status = 'published' AND mo.hidden_at IS NULL
            AND (($1::text IS NOT NULL AND a.member_role IS NOT NULL) OR NOT mo.members_only
                 OR mo.author_user_id = $1::text OR mo.author_guest_token_id = $2::text)
            AND ${keysetBefore('mo', '$4', '$5')}
          ORDER BY mo.created_at DESC, mo.id DESC
          LIMIT $6) w ON true`;

/**
 * `WALL_SQL` as a function planned once per connection (`plannedOnce`): measured on the bench's wall, making
 * this statement's plan cost more than running it (PostgreSQL 0.13 ms planning, 0.06 ms executing; PGlite
 * 0.65 and 0.47 ms), and PostgreSQL's own choice stays with a new plan for every call. Same arguments, same
 * rows; the page's order is set by the one statement that calls it (`WALL_PAGE_SQL`, on `created_at`).
 */
export const wallRoutine = plannedOnce('memory_wall_page', {
  args: 'text, text, uuid, timestamptz, uuid, integer, text',
  returns: `memorial_status text, memorial_visibility text, member_role text, id uuid, created_at timestamptz,
            cursor_ts text, status text, members_only boolean, author_user_id text, author_guest_token_id text,
            loved_by_me boolean, own_media boolean, card text`,
  statement: WALL_SQL,
});

/**
 * The function's columns but `created_at`, which only orders the page: the driver would parse it into a Date
 * for every row (profiled on the uncached wall: ~4 % of the request's time in the app).
 */
const WALL_PAGE_SQL = `SELECT memorial_status, memorial_visibility, member_role, id, cursor_ts, status, members_only,
       author_user_id, author_guest_token_id, loved_by_me, own_media, card
  FROM ${wallRoutine.name}($1, $2, $3, $4, $5, $6, $7) ORDER BY created_at DESC, id DESC`;

/**
 * Stores cards made from rows read at the given card versions. A card whose memory changed since (its
 * version moved on), that another request stored first, or whose row is locked by a change under way, is
 * left out: it is made again next time. Skipping locked rows keeps a read from waiting on writes, and two
 * reads storing overlapping pages from ever deadlocking.
 * $1 card key, $2 ids, $3 cards, $4 the versions they were made from.
 */
const STORE_CARDS_SQL = `WITH c AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::bigint[]) AS c(id, card, version)),
       free AS (SELECT mo.id FROM memories mo JOIN c ON c.id = mo.id
                 WHERE mo.card_version = c.version AND (mo.card IS NULL OR mo.card_key IS DISTINCT FROM $1::text)
                 FOR UPDATE OF mo SKIP LOCKED)
  UPDATE memories mo SET card = c.card, card_key = $1::text
    FROM c JOIN free ON free.id = c.id
   WHERE mo.id = c.id AND mo.card_version = c.version`;

type Cursor = [string, string] | null;

export function memoriesRepository(db: Queryable) {
  return {
    ...memoryFactsRepository(db),

    /** The media of a page of memories, in list order per memory. */
    async listMediaByMemoryIds(memoryIds: string[]): Promise<MediaRow[]> {
      if (memoryIds.length === 0) return [];
      const { rows } = await db.query<MediaRow>(
        `SELECT ${mediaColumns}
           FROM media m
          WHERE m.memory_id = ANY($1::uuid[]) AND m.hidden_at IS NULL
          ORDER BY m.memory_id, m.position, m.id`,
        [memoryIds],
      );
      return rows;
    },

    async findById(id: string, viewer: Viewer): Promise<MemoryRow | undefined> {
      const { rows } = await db.query<MemoryRow>(`${select} WHERE mo.id = $3`, [...viewerParams(viewer), id]);
      return rows[0];
    },

    async insert(
      q: Queryable,
      m: {
        memorialId: string;
        yearLabel: string;
        body: string;
        membersOnly: boolean;
        authorKind: 'user' | 'guest';
        authorUserId: string | null;
        authorGuestTokenId: string | null;
        authorName: string | null;
      },
    ): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO memories (memorial_id, year_label, body, members_only, author_kind, author_user_id,
                               author_guest_token_id, author_name)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          m.memorialId,
          m.yearLabel,
          m.body,
          m.membersOnly,
          m.authorKind,
          m.authorUserId,
          m.authorGuestTokenId,
          m.authorName,
        ],
      );
      return rows[0]!.id;
    },

    async update(
      q: Queryable,
      id: string,
      patch: { yearLabel?: string; body?: string; status?: MemoryStatus },
    ): Promise<void> {
      await q.query(
        `UPDATE memories SET year_label = coalesce($2, year_label), body = coalesce($3, body),
                status = coalesce($4, status), updated_at = now()
          WHERE id = $1`,
        [id, patch.yearLabel ?? null, patch.body ?? null, patch.status ?? null],
      );
    },

    async setMembersOnly(q: Queryable, id: string, membersOnly: boolean): Promise<void> {
      await q.query('UPDATE memories SET members_only = $2, updated_at = now() WHERE id = $1', [
        id,
        membersOnly,
      ]);
    },

    async delete(q: Queryable, id: string): Promise<void> {
      await q.query('DELETE FROM memories WHERE id = $1', [id]);
    },

    /**
     * One page of the wall with its cards, and the caller's access to its memorial, in one statement
     * (`WALL_SQL`, through `wallRoutine`). The caller must check access (`accessFromRow`) before using the rows.
     */
    async wallPage(
      memorialId: string,
      o: { viewer: Viewer; after: Cursor; limit: number; cardKey: string },
    ): Promise<{ access: MemorialAccessRow | undefined; rows: WallCardRow[] }> {
      const { rows } = await db.query<
        { memorial_status: MemorialStatus; memorial_visibility: MemorialVisibility } & MemorialAccessRow &
          WallCardRow
      >(WALL_PAGE_SQL, [
        ...viewerParams(o.viewer),
        memorialId,
        o.after?.[0] ?? null,
        o.after?.[1] ?? null,
        o.limit,
        o.cardKey,
      ]);
      const first = rows[0];
      if (!first) return { access: undefined, rows: [] };
      return {
        access: {
          status: first.memorial_status,
          visibility: first.memorial_visibility,
          member_role: first.member_role,
        },
        rows: first.id === null ? [] : rows,
      };
    },

    /** The full rows of some of a wall page's memories, in one statement. */
    async wallRows(ids: string[], viewer: Viewer): Promise<WallRow[]> {
      const { rows } = await db.query<WallRow>(WALL_FULL_SQL, [...viewerParams(viewer), ids]);
      return rows;
    },

    /** Keeps cards for next time (see `STORE_CARDS_SQL`). */
    async storeCards(cardKey: string, cards: { id: string; card: string; version: string }[]) {
      await db.query(STORE_CARDS_SQL, [
        cardKey,
        cards.map((c) => c.id),
        cards.map((c) => c.card),
        cards.map((c) => c.version),
      ]);
    },

    /** For editors and owners: the given statuses (never concepts), newest first. */
    async manage(
      memorialId: string,
      o: { viewer: Viewer; statuses: MemoryStatus[]; after: Cursor; limit: number },
    ): Promise<MemoryRow[]> {
      const { rows } = await db.query<MemoryRow>(
        `${select}
          WHERE mo.memorial_id = $3 AND mo.status = ANY($4::text[]) AND mo.hidden_at IS NULL
            AND ${keysetBefore('mo', '$5', '$6')}
          ORDER BY mo.created_at DESC, mo.id DESC
          LIMIT $7`,
        [
          ...viewerParams(o.viewer),
          memorialId,
          o.statuses,
          o.after?.[0] ?? null,
          o.after?.[1] ?? null,
          o.limit,
        ],
      );
      return rows;
    },

    async statusCounts(memorialId: string): Promise<Record<'pending' | 'published' | 'rejected', number>> {
      const { rows } = await db.query<{ status: MemoryStatus; n: number }>(
        `SELECT status, count(*)::int AS n FROM memories WHERE memorial_id = $1 AND status <> 'concept' GROUP BY status`,
        [memorialId],
      );
      const counts = { pending: 0, published: 0, rejected: 0 };
      for (const r of rows) if (r.status !== 'concept') counts[r.status] = r.n;
      return counts;
    },

    /**
     * The viewer's own memories, all statuses, newest first: a user's on memorials they are still a
     * member of (or on `memorialId`), a guest's written with their guest token.
     */
    async own(o: {
      viewer: Viewer;
      memorialId: string | null;
      after: Cursor;
      limit: number;
    }): Promise<OwnMemoryRow[]> {
      const { rows } = await db.query<OwnMemoryRow>(
        `${selectWith(
          'mem.status AS memorial_status, mem.visibility AS memorial_visibility, mm.role AS member_role,',
          'JOIN memorials mem ON mem.id = mo.memorial_id LEFT JOIN memorial_members mm ON mm.memorial_id = mo.memorial_id AND mm.user_id = $1::text',
        )}
          WHERE (($1::text IS NOT NULL AND mo.author_user_id = $1::text
                  AND ($3::uuid IS NOT NULL OR mm.role IS NOT NULL))
                 OR ($2::text IS NOT NULL AND mo.author_guest_token_id = $2::text))
            AND ($3::uuid IS NULL OR mo.memorial_id = $3::uuid)
            AND mem.deleted_at IS NULL
            AND ${keysetBefore('mo', '$4', '$5')}
          ORDER BY mo.created_at DESC, mo.id DESC
          LIMIT $6`,
        [...viewerParams(o.viewer), o.memorialId, o.after?.[0] ?? null, o.after?.[1] ?? null, o.limit],
      );
      return rows;
    },

    async love(memoryId: string, viewer: Viewer, name: string | null): Promise<void> {
      if (viewer.userId) {
        await db.query(
          `INSERT INTO memory_loves (memory_id, user_id, name) VALUES ($1, $2, $3)
           ON CONFLICT (memory_id, user_id) WHERE user_id IS NOT NULL DO NOTHING`,
          [memoryId, viewer.userId, name],
        );
      } else if (viewer.guestTokenId) {
        await db.query(
          `INSERT INTO memory_loves (memory_id, guest_token_id, name) VALUES ($1, $2, $3)
           ON CONFLICT (memory_id, guest_token_id) WHERE guest_token_id IS NOT NULL DO NOTHING`,
          [memoryId, viewer.guestTokenId, name],
        );
      }
    },

    async unlove(memoryId: string, viewer: Viewer): Promise<void> {
      await db.query(
        'DELETE FROM memory_loves WHERE memory_id = $1 AND (user_id = $2::text OR guest_token_id = $3::text)',
        [memoryId, viewer.userId, viewer.guestTokenId],
      );
    },
  };
}
export type MemoriesRepository = ReturnType<typeof memoriesRepository>;

/**
 * Memories from visitors of a public page (visitor-service.ts): the memory is a guest's concept, the address
 * that has to confirm it lives in its own row (`memory_visitors`).
 */
export const visitorMemoryRepository = {
  /** What the visitor's form needs of the page; undefined when it is gone. */
  async page(q: Queryable, memorialId: string) {
    const { rows } = await q.query<{
      first_name: string;
      last_name: string;
      visibility: string;
      status: string;
      invite_only: boolean;
      visitor_memories: boolean;
    }>(
      `SELECT first_name, last_name, visibility, status, invite_only, visitor_memories
         FROM memorials WHERE id = $1 AND deleted_at IS NULL`,
      [memorialId],
    );
    return rows[0];
  },

  /** Concepts left unconfirmed for more than `days` go (a few at a time, on the way). */
  async sweepUnconfirmed(q: Queryable, days: number) {
    await q.query(
      `DELETE FROM memories WHERE id IN (
         SELECT memory_id FROM memory_visitors
          WHERE confirmed_at IS NULL AND created_at < now() - make_interval(days => $1) LIMIT 50)`,
      [days],
    );
  },

  /** A guest's concept whose author token no guest token can ever have (see the migration). */
  async insert(
    q: Queryable,
    m: { id: string; memorialId: string; yearLabel: string; body: string; name: string },
  ) {
    await q.query(
      `INSERT INTO memories (id, memorial_id, year_label, body, status, author_kind, author_guest_token_id, author_name)
       VALUES ($1, $2, $3, $4, 'concept', 'guest', $5, $6)`,
      [m.id, m.memorialId, m.yearLabel, m.body, `visitor:${m.id}`, m.name],
    );
  },

  /** The address that has to confirm the memory; it goes with the memory (and with the page). */
  async insertAddress(q: Queryable, m: { memoryId: string; memorialId: string; email: string }) {
    await q.query(`INSERT INTO memory_visitors (memory_id, memorial_id, email) VALUES ($1, $2, $3)`, [
      m.memoryId,
      m.memorialId,
      m.email,
    ]);
  },

  /** The submission with its page, locked until the transaction ends; undefined when either is gone. */
  async lockSubmission(q: Queryable, memoryId: string) {
    const { rows } = await q.query<{
      memorial_id: string;
      confirmed_at: Date | null;
      first_name: string;
      last_name: string;
      visitor_memories: boolean;
      visibility: string;
    }>(
      `SELECT v.memorial_id, v.confirmed_at, m.first_name, m.last_name, m.visitor_memories, m.visibility
         FROM memory_visitors v JOIN memorials m ON m.id = v.memorial_id AND m.deleted_at IS NULL
        WHERE v.memory_id = $1 FOR UPDATE OF v`,
      [memoryId],
    );
    return rows[0];
  },

  async markConfirmed(q: Queryable, memoryId: string) {
    await q.query('UPDATE memory_visitors SET confirmed_at = now() WHERE memory_id = $1', [memoryId]);
  },
};

/** What a deleted account leaves of memories (`forgetPerson` in service.ts). */
export const memoryForgetting = {
  /** What they left on memorials stays, from `formerName`; concepts (seen by nobody else) go. */
  async authoredBy(q: Queryable, userId: string, formerName: string) {
    await q.query(`DELETE FROM memories WHERE author_user_id = $1 AND status = 'concept'`, [userId]);
    await q.query(`UPDATE memories SET author_name = $2 WHERE author_user_id = $1`, [userId, formerName]);
    await q.query('UPDATE memory_loves SET name = NULL WHERE user_id = $1', [userId]);
  },

  /** Memories left as a visitor with this address: unconfirmed ones go, confirmed ones stay without it. */
  async leftAsVisitor(q: Queryable, email: string) {
    await q.query(
      `DELETE FROM memories WHERE id IN (SELECT memory_id FROM memory_visitors WHERE email = $1 AND confirmed_at IS NULL)`,
      [email],
    );
    await q.query('DELETE FROM memory_visitors WHERE email = $1', [email]);
  },
};
