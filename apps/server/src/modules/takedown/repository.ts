import type { TakedownItem, TakedownItemType, TakedownReason } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { MemoryFacts } from '../../shared/memory-policy.ts';

/** The reported item with what deciding access to it needs. */
export interface ItemFacts {
  itemType: TakedownItemType;
  id: string;
  memorialId: string;
  /** The memory itself, or the memory a photo belongs to (null for a gallery photo). */
  memory: (MemoryFacts & { id: string }) | null;
  hiddenBy: 'team' | 'owner' | null;
}

const table = (t: TakedownItemType) => (t === 'memory' ? 'memories' : 'media');

interface ItemRow {
  [key: string]: unknown;
  item_type: TakedownItemType;
  item_id: string;
  memorial_id: string;
  first_name: string;
  last_name: string;
  preview: string | null;
  hidden_at: Date | string | null;
  hidden_by: 'team' | 'owner' | null;
  hidden_reason: string | null;
  reports: {
    id: string;
    reason: TakedownReason;
    details: string | null;
    status: 'open' | 'handled';
    created_at: string;
  }[];
}

/**
 * Reported or hidden items with their reports, newest report first. `$1` limits to one memorial (null: all).
 * A memory's preview is its year and first words; a photo's its caption.
 */
const ITEMS_SQL = `
  WITH items AS (
    SELECT 'memory' AS item_type, mo.id AS item_id, mo.memorial_id,
           mo.year_label || ': ' || left(mo.body, 120) AS preview,
           mo.hidden_at, mo.hidden_by, mo.hidden_reason
      FROM memories mo
     WHERE ($1::uuid IS NULL OR mo.memorial_id = $1::uuid)
       AND (mo.hidden_at IS NOT NULL OR EXISTS (SELECT 1 FROM takedown_reports r WHERE r.memory_id = mo.id))
    UNION ALL
    SELECT 'media', m.id, m.memorial_id, coalesce(m.caption, CASE m.kind WHEN 'video' THEN 'Video' ELSE 'Foto' END),
           m.hidden_at, m.hidden_by, m.hidden_reason
      FROM media m
     WHERE ($1::uuid IS NULL OR m.memorial_id = $1::uuid)
       AND (m.hidden_at IS NOT NULL OR EXISTS (SELECT 1 FROM takedown_reports r WHERE r.media_id = m.id)))
  SELECT i.*, mem.first_name, mem.last_name,
         coalesce((SELECT json_agg(json_build_object('id', r.id, 'reason', r.reason, 'details', r.details,
                                                     'status', r.status, 'created_at', r.created_at)
                                   ORDER BY r.created_at DESC, r.id DESC)
                     FROM takedown_reports r
                    WHERE r.memory_id = i.item_id OR r.media_id = i.item_id), '[]'::json) AS reports,
         (SELECT max(r.created_at) FROM takedown_reports r WHERE r.memory_id = i.item_id OR r.media_id = i.item_id) AS last_at,
         EXISTS (SELECT 1 FROM takedown_reports r
                  WHERE (r.memory_id = i.item_id OR r.media_id = i.item_id) AND r.status = 'open') AS has_open
    FROM items i JOIN memorials mem ON mem.id = i.memorial_id
   ORDER BY has_open DESC, last_at DESC NULLS LAST, i.item_id
   LIMIT $2`;

const isoOf = (v: Date | string) => new Date(v).toISOString();

export function takedownRepository(db: Queryable) {
  return {
    async facts(itemType: TakedownItemType, id: string): Promise<ItemFacts | undefined> {
      const { rows } = await db.query<{
        id: string;
        memorial_id: string;
        hidden_by: 'team' | 'owner' | null;
        memory_id: string | null;
        status: MemoryFacts['status'] | null;
        members_only: boolean | null;
        author_user_id: string | null;
        author_guest_token_id: string | null;
        memory_hidden: boolean | null;
      }>(
        itemType === 'memory'
          ? `SELECT mo.id, mo.memorial_id, mo.hidden_by, mo.id AS memory_id, mo.status, mo.members_only,
                    mo.author_user_id, mo.author_guest_token_id, mo.hidden_at IS NOT NULL AS memory_hidden
               FROM memories mo WHERE mo.id = $1`
          : `SELECT m.id, m.memorial_id, m.hidden_by, mo.id AS memory_id, mo.status, mo.members_only,
                    mo.author_user_id, mo.author_guest_token_id, mo.hidden_at IS NOT NULL AS memory_hidden
               FROM media m LEFT JOIN memories mo ON mo.id = m.memory_id WHERE m.id = $1`,
        [id],
      );
      const r = rows[0];
      if (!r) return undefined;
      return {
        itemType,
        id: r.id,
        memorialId: r.memorial_id,
        hiddenBy: r.hidden_by,
        memory: r.memory_id
          ? {
              id: r.memory_id,
              status: r.status!,
              membersOnly: r.members_only!,
              authorUserId: r.author_user_id,
              authorGuestTokenId: r.author_guest_token_id,
              hidden: r.memory_hidden ?? false,
            }
          : null,
      };
    },

    /** Reports from one address: in the last hour, and of this item in the last day. */
    async reportCounts(reporterKey: string, itemId: string) {
      const { rows } = await db.query<{ hour: number; item: number; item_total: number; item_open: number }>(
        `SELECT count(*) FILTER (WHERE reporter_key = $1 AND created_at > now() - interval '1 hour')::int AS hour,
                count(*) FILTER (WHERE reporter_key = $1 AND created_at > now() - interval '1 day'
                                   AND (memory_id = $2 OR media_id = $2))::int AS item,
                count(*) FILTER (WHERE created_at > now() - interval '1 day'
                                   AND (memory_id = $2 OR media_id = $2))::int AS item_total,
                count(*) FILTER (WHERE status = 'open' AND (memory_id = $2 OR media_id = $2))::int AS item_open
           FROM takedown_reports
          WHERE (reporter_key = $1 AND created_at > now() - interval '1 day') OR memory_id = $2 OR media_id = $2`,
        [reporterKey, itemId],
      );
      return rows[0]!;
    },

    async insertReport(r: {
      memorialId: string;
      itemType: TakedownItemType;
      itemId: string;
      reason: TakedownReason;
      details: string | null;
      reporterUserId: string | null;
      reporterKey: string;
    }): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO takedown_reports (memorial_id, memory_id, media_id, reason, details, reporter_user_id, reporter_key)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          r.memorialId,
          r.itemType === 'memory' ? r.itemId : null,
          r.itemType === 'media' ? r.itemId : null,
          r.reason,
          r.details,
          r.reporterUserId,
          r.reporterKey,
        ],
      );
      return rows[0]!.id;
    },

    /** Hides an item not hidden yet; false when it already was. */
    async hide(itemType: TakedownItemType, id: string, by: 'team' | 'owner', reason: string) {
      const { rowCount } = await db.query(
        `UPDATE ${table(itemType)} SET hidden_at = now(), hidden_by = $2, hidden_reason = $3, updated_at = now()
          WHERE id = $1 AND hidden_at IS NULL`,
        [id, by, reason],
      );
      return rowCount > 0;
    },

    async unhide(itemType: TakedownItemType, id: string) {
      const { rowCount } = await db.query(
        `UPDATE ${table(itemType)} SET hidden_at = NULL, hidden_by = NULL, hidden_reason = NULL, updated_at = now()
          WHERE id = $1 AND hidden_at IS NOT NULL`,
        [id],
      );
      return rowCount > 0;
    },

    async closeReports(itemType: TakedownItemType, id: string, userId: string | null) {
      await db.query(
        `UPDATE takedown_reports SET status = 'handled', handled_at = now(), handled_by = $2
          WHERE ${itemType === 'memory' ? 'memory_id' : 'media_id'} = $1 AND status = 'open'`,
        [id, userId],
      );
    },

    async items(memorialId: string | null, limit: number): Promise<TakedownItem[]> {
      const { rows } = await db.query<ItemRow>(ITEMS_SQL, [memorialId, limit]);
      return rows.map((r) => ({
        itemType: r.item_type,
        itemId: r.item_id,
        memorialId: r.memorial_id,
        memorialName: `${r.first_name} ${r.last_name}`.trim(),
        preview: r.preview ?? '',
        hidden:
          r.hidden_at && r.hidden_by
            ? { by: r.hidden_by, reason: r.hidden_reason ?? '', at: isoOf(r.hidden_at) }
            : null,
        reports: r.reports.map((x) => ({
          id: x.id,
          reason: x.reason,
          details: x.details,
          status: x.status,
          createdAt: isoOf(x.created_at),
        })),
        lastReportedAt: r.reports[0] ? isoOf(r.reports[0].created_at) : null,
      }));
    },

    /** The verified addresses of the memorial's owners, each with the owner's name. */
    async ownerAddresses(memorialId: string): Promise<{ email: string; name: string | null }[]> {
      const { rows } = await db.query<{ email: string; name: string | null }>(
        `SELECT DISTINCT ON (lower(coalesce(a.email, u.email))) lower(coalesce(a.email, u.email)) AS email, u.name
           FROM memorial_members mm JOIN users u ON u.id = mm.user_id
           LEFT JOIN accounts a ON a.id::text = u.id
          WHERE mm.memorial_id = $1 AND mm.role = 'owner' AND u.deleted_at IS NULL
            AND coalesce(a.email, u.email) IS NOT NULL`,
        [memorialId],
      );
      return rows;
    },

    async memorialName(memorialId: string): Promise<string> {
      const { rows } = await db.query<{ name: string }>(
        `SELECT first_name || ' ' || last_name AS name FROM memorials WHERE id = $1`,
        [memorialId],
      );
      return rows[0]?.name ?? '';
    },
  };
}
