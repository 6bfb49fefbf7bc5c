import type { Queryable } from '../../db/client.ts';
import type { FileJobRow, FileStore, ReadyFileRow } from '../../lib/generated-files.ts';

export type ExportRow = {
  id: string;
  kind: 'memorial' | 'personal';
  memorial_id: string | null;
  user_id: string;
  status: 'preparing' | 'ready' | 'failed';
  storage_key: string | null;
  size_bytes: string | null;
  created_at: Date;
  expires_at: Date | null;
};

export /** The file the export holds for one media item: its largest stored variant, byte for byte. */
type MediaPick = {
  id: string;
  memory_id: string | null;
  kind: 'image' | 'video';
  caption: string | null;
  position: number;
  uploaded_by_user_id: string | null;
  created_at: Date;
  storage_key: string;
  content_type: string;
  width: number | null;
  height: number | null;
  sha256: string;
};
/** Ready media with the variant to export: the original if kept, else the widest (JPEG before WebP). */
const MEDIA_PICK_SQL = `
  SELECT m.id::text, m.memorial_id::text, m.memory_id::text, m.kind, m.caption, m.position, m.uploaded_by_user_id, m.created_at,
         v.storage_key, v.content_type, v.width, v.height, v.sha256
    FROM media m
    JOIN LATERAL (SELECT * FROM media_variants v WHERE v.media_id = m.id
                   ORDER BY (v.name = 'original') DESC, v.width DESC NULLS LAST, (v.content_type = 'image/jpeg') DESC
                   LIMIT 1) v ON true
   WHERE m.status <> 'processing' AND `;

export type ExportJobRow = ExportRow & FileJobRow;
export type ExportFileRow = ReadyFileRow & {
  userId: string;
  kind: ExportRow['kind'];
  createdAt: Date;
  subjectName: string | null;
};

export function exportsRepository(db: Queryable) {
  return {
    /** The user's newest export of this memorial, or of their own data (`memorialId` null). */
    async newest(userId: string, memorialId: string | null): Promise<ExportRow | undefined> {
      const { rows } = await db.query<ExportRow>(
        `SELECT * FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid
        ORDER BY created_at DESC LIMIT 1`,
        [userId, memorialId ? 'memorial' : 'personal', memorialId],
      );
      return rows[0];
    },

    /** One being prepared (a request at the same moment may have started it). */
    async preparing(userId: string, memorialId: string | null): Promise<ExportRow | undefined> {
      const { rows: started } = await db.query<ExportRow>(
        `SELECT * FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid
            AND status = 'preparing' ORDER BY created_at DESC LIMIT 1`,
        [userId, memorialId ? 'memorial' : 'personal', memorialId],
      );
      return started[0];
    },

    /** A new export in place of the user's older ones; expired exports of anyone go too (their files by the delete trigger's job). */
    async replace(userId: string, memorialId: string | null): Promise<ExportRow> {
      await db.query(
        `DELETE FROM exports WHERE user_id = $1 AND kind = $2 AND memorial_id IS NOT DISTINCT FROM $3::uuid`,
        [userId, memorialId ? 'memorial' : 'personal', memorialId],
      );
      await db.query(`DELETE FROM exports WHERE expires_at < now()`);
      const { rows } = await db.query<ExportRow>(
        `INSERT INTO exports (kind, memorial_id, user_id) VALUES ($1, $2, $3) RETURNING *`,
        [memorialId ? 'memorial' : 'personal', memorialId, userId],
      );
      return rows[0]!;
    },

    /** What a memorial's export holds: the page, its published memories, its media and its candles. */
    async memorialData(memorialId: string) {
      const { rows: mrows } = await db.query<{
        id: string;
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
        birth_place: string | null;
        death_place: string | null;
        quote: string | null;
        biography_html: string;
        status: string;
        visibility: string;
        cover_media_id: string | null;
        created_at: Date;
        published_at: Date | null;
      }>(
        `SELECT id::text, first_name, last_name, birth_date::text, death_date::text, birth_place, death_place, quote,
              biography_html, status, visibility, cover_media_id::text, created_at, published_at
         FROM memorials WHERE id = $1`,
        [memorialId],
      );
      const m = mrows[0];
      if (!m) throw new Error('memorial gone');
      const { rows: memories } = await db.query<{
        id: string;
        year_label: string;
        body: string;
        members_only: boolean;
        author_name: string | null;
        published_at: Date;
        created_at: Date;
      }>(
        `SELECT x.id::text, x.year_label, x.body, x.members_only, x.published_at, x.created_at,
              CASE WHEN x.author_kind = 'guest' THEN x.author_name ELSE u.name END AS author_name
         FROM memories x LEFT JOIN users u ON u.id = x.author_user_id
        WHERE x.memorial_id = $1 AND x.status = 'published'
        ORDER BY x.published_at, x.id`,
        [memorialId],
      );
      const { rows: media } = await db.query<MediaPick>(
        `${MEDIA_PICK_SQL} m.memorial_id = $1
         AND (m.memory_id IS NULL OR m.memory_id IN (SELECT id FROM memories WHERE memorial_id = $1 AND status = 'published'))
       ORDER BY m.memory_id NULLS FIRST, m.position, m.id`,
        [memorialId],
      );
      const { rows: candles } = await db.query<{
        kind: string;
        name: string;
        message: string | null;
        created_at: Date;
      }>(
        'SELECT kind, name, message, created_at FROM candles WHERE memorial_id = $1 ORDER BY created_at, id',
        [memorialId],
      );
      return { m, memories, media, candles };
    },

    /** What a personal export holds: the profile, memberships, memories, media, candles, loves and log lines. */
    async personalData(userId: string, embeddedIdentity: boolean) {
      const one = async <T extends Record<string, unknown>>(sql: string) =>
        (await db.query<T>(sql, [userId])).rows;
      const [user] = await one<{ id: string; email: string | null; name: string | null; created_at: Date }>(
        'SELECT id, email, name, created_at FROM users WHERE id = $1',
      );
      if (!user) throw new Error('user gone');
      const account = embeddedIdentity
        ? (
            await one<{ email: string; name: string; email_verified: boolean; created_at: Date }>(
              'SELECT email, name, email_verified, created_at FROM accounts WHERE id::text = $1',
            )
          )[0]
        : undefined;
      const memberships = await one<{
        id: string;
        memorial_id: string;
        memorial_name: string;
        role: string;
        created_at: Date;
      }>(
        `SELECT mm.id::text, mm.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, mm.role, mm.created_at
         FROM memorial_members mm JOIN memorials m ON m.id = mm.memorial_id
        WHERE mm.user_id = $1 ORDER BY mm.created_at, mm.id`,
      );
      const memories = await one<{
        id: string;
        memorial_id: string;
        memorial_name: string;
        year_label: string;
        body: string;
        status: string;
        members_only: boolean;
        created_at: Date;
        published_at: Date | null;
      }>(
        `SELECT x.id::text, x.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, x.year_label, x.body,
              x.status, x.members_only, x.created_at, x.published_at
         FROM memories x JOIN memorials m ON m.id = x.memorial_id
        WHERE x.author_user_id = $1 ORDER BY x.created_at, x.id`,
      );
      // Photos and videos they uploaded (gallery or memories), and those of their own memories.
      const media = await one<MediaPick & { memorial_id: string }>(
        `${MEDIA_PICK_SQL} (m.uploaded_by_user_id = $1
          OR m.memory_id IN (SELECT id FROM memories WHERE author_user_id = $1))
       ORDER BY m.created_at, m.id`,
      );
      const candles = await one<{
        memorial_id: string;
        memorial_name: string;
        kind: string;
        name: string;
        message: string | null;
        created_at: Date;
      }>(
        `SELECT c.memorial_id::text, m.first_name || ' ' || m.last_name AS memorial_name, c.kind, c.name, c.message, c.created_at
         FROM candles c JOIN memorials m ON m.id = c.memorial_id
        WHERE c.lit_by_user_id = $1 ORDER BY c.created_at, c.id`,
      );
      const loves = await one<{ memory_id: string; created_at: Date }>(
        'SELECT memory_id::text, created_at FROM memory_loves WHERE user_id = $1 ORDER BY created_at, id',
      );
      // Audit entries about them: what they did, and what was done to their account or membership.
      const audit = await one<{
        memorial_id: string;
        action: string;
        actor_kind: string;
        actor_is_you: boolean;
        target_type: string | null;
        target_id: string | null;
        details: Record<string, unknown>;
        created_at: Date;
      }>(
        `SELECT a.memorial_id::text, a.action, a.actor_kind, a.actor_user_id IS NOT DISTINCT FROM $1 AS actor_is_you,
              a.target_type, a.target_id, a.details, a.created_at
         FROM memorial_audit_log a
        WHERE a.actor_user_id = $1 OR a.target_id = $1
           OR a.target_id IN (SELECT id::text FROM memorial_members WHERE user_id = $1)
        ORDER BY a.seq`,
      );
      return { user, account, memberships, memories, media, candles, loves, audit };
    },
  };
}

/** The statements the generated-file pipeline runs on `exports`. */
export function exportFileStore(
  db: Queryable,
): FileStore<ExportJobRow, { subjectName: string | null }, ExportFileRow> {
  return {
    async claim(id) {
      const { rows } = await db.query<ExportRow>('SELECT * FROM exports WHERE id = $1', [id]);
      const row = rows[0];
      if (!row || row.status !== 'preparing') return undefined;
      return { ...row, memorialId: row.memorial_id, requestedBy: row.user_id };
    },
    refuse: (q, id, message) =>
      q.query(
        `UPDATE exports SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1 AND status = 'preparing'`,
        [id, message],
      ),
    async ready(tx, id, file) {
      const { rows } = await tx.query<{ email: string | null; name: string | null }>(
        `UPDATE exports e SET status = 'ready', storage_key = $2, size_bytes = $3, finished_at = now(), expires_at = $4
           FROM users u WHERE e.id = $1 AND e.status = 'preparing' AND u.id = e.user_id
         RETURNING u.email, u.name`,
        [id, file.key, file.size, file.expiresAt],
      );
      return rows[0];
    },
    failed: (id, o) =>
      o.final
        ? db.query(`UPDATE exports SET status = 'failed', finished_at = now() WHERE id = $1`, [id])
        : Promise.resolve(),
    async expiresAt(id) {
      const { rows } = await db.query<{ expires_at: Date | null }>(
        'SELECT expires_at FROM exports WHERE id = $1',
        [id],
      );
      return rows[0] ? rows[0].expires_at : undefined;
    },
    deleteExpired: (id) => db.query('DELETE FROM exports WHERE id = $1 AND expires_at <= now()', [id]),
    async file(id) {
      const { rows } = await db.query<ExportRow & { first_name: string | null; last_name: string | null }>(
        `SELECT e.*, m.first_name, m.last_name FROM exports e LEFT JOIN memorials m ON m.id = e.memorial_id
          WHERE e.id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        storageKey: row.storage_key,
        sizeBytes: Number(row.size_bytes),
        ready: row.status === 'ready',
        expiresAt: row.expires_at,
        userId: row.user_id,
        kind: row.kind,
        createdAt: row.created_at,
        subjectName: row.kind === 'memorial' ? `${row.first_name} ${row.last_name}` : null,
      };
    },
  };
}
