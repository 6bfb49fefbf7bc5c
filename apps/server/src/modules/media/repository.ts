import type { MediaKind, MemoryStatus } from '@aandenken/contract';
import type { Db, Queryable } from '../../db/client.ts';
import type { IngestedMedia, StoredVariant } from '../../lib/media/pipeline.ts';
import { mediaColumns, type MediaRow } from '../../shared/media-rows.ts';

/** A media row with what deciding access to it needs: its memory's facts (null in the gallery). */
export interface MediaWithMemoryRow extends MediaRow {
  /** Hidden after a report, itself or its memory ('Melden'): seen by the page's owners only. */
  hidden: boolean;
  memory_status: MemoryStatus | null;
  memory_members_only: boolean | null;
  memory_author_user_id: string | null;
  memory_author_guest_token_id: string | null;
}

/** One list: a memory's media, or the gallery (memory_id NULL), written so the partial indexes apply. */
const listWhere = (memoryId: string | null) =>
  memoryId
    ? 'memorial_id = $1 AND memory_id = $2'
    : 'memorial_id = $1 AND memory_id IS NULL AND $2::uuid IS NULL';

/**
 * Locks the memory a photo belongs to (none in the gallery) before the photo itself is changed. A change to a
 * memory's photo also changes the memory (its photo count, its card: migrations 092 and 093), and deleting a
 * memory locks it before its photos: taking the locks in that same order means the two never deadlock.
 */
async function lockMemoryOfMedia(tx: Queryable, mediaId: string) {
  await tx.query(
    'SELECT 1 FROM memories WHERE id = (SELECT memory_id FROM media WHERE id = $1) FOR NO KEY UPDATE',
    [mediaId],
  );
}

export function mediaRepository(db: Db) {
  return {
    /**
     * Serialises additions to one list (the gallery or one memory) so positions and the count limit
     * hold under concurrent uploads; returns how many items the list has.
     */
    async lockListAndCount(tx: Queryable, memorialId: string, memoryId: string | null): Promise<number> {
      if (memoryId) await tx.query('SELECT 1 FROM memories WHERE id = $1 FOR NO KEY UPDATE', [memoryId]);
      else await tx.query('SELECT 1 FROM memorials WHERE id = $1 FOR NO KEY UPDATE', [memorialId]);
      const { rows } = await tx.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM media WHERE ${listWhere(memoryId)}`,
        [memorialId, memoryId],
      );
      return rows[0]!.n;
    },

    async countList(memorialId: string, memoryId: string | null): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM media WHERE ${listWhere(memoryId)}`,
        [memorialId, memoryId],
      );
      return rows[0]!.n;
    },

    async insert(
      tx: Queryable,
      m: IngestedMedia,
      o: {
        memorialId: string;
        memoryId: string | null;
        caption: string | null;
        userId: string | null;
        guestTokenId: string | null;
      },
    ): Promise<void> {
      await tx.query(
        `INSERT INTO media (id, memorial_id, memory_id, kind, status, content_type, size_bytes, sha256, width, height,
                            caption, position, source_key, uploaded_by_user_id, uploaded_by_guest_token_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
                 (SELECT coalesce(max(position) + 1, 0) FROM media
                   WHERE memorial_id = $2 AND ${o.memoryId ? 'memory_id = $3' : 'memory_id IS NULL AND $3::uuid IS NULL'}),
                 $12, $13, $14)`,
        [
          m.id,
          o.memorialId,
          o.memoryId,
          m.kind,
          m.kind === 'video' ? 'ready' : 'processing',
          m.contentType,
          m.sizeBytes,
          m.sha256,
          m.width,
          m.height,
          o.caption,
          m.sourceKey,
          o.userId,
          o.guestTokenId,
        ],
      );
      await this.insertVariants(tx, m.id, m.variants);
    },

    async insertVariants(q: Queryable, mediaId: string, variants: StoredVariant[]): Promise<void> {
      if (variants.length === 0) return;
      await q.query(
        `INSERT INTO media_variants (media_id, name, content_type, width, height, size_bytes, sha256, storage_key)
         SELECT $1, v.name, v.content_type, v.width, v.height, v.size_bytes, v.sha256, v.storage_key
           FROM json_to_recordset($2::json) AS v(name text, content_type text, width int, height int,
                                                 size_bytes int, sha256 text, storage_key text)
         ON CONFLICT (media_id, name) DO NOTHING`,
        [
          mediaId,
          JSON.stringify(
            variants.map((v) => ({
              name: v.name,
              content_type: v.contentType,
              width: v.width,
              height: v.height,
              size_bytes: v.sizeBytes,
              sha256: v.sha256,
              storage_key: v.storageKey,
            })),
          ),
        ],
      );
    },

    async findById(id: string): Promise<MediaWithMemoryRow | undefined> {
      const { rows } = await db.query<MediaWithMemoryRow>(
        `SELECT ${mediaColumns}, (m.hidden_at IS NOT NULL OR mo.hidden_at IS NOT NULL) AS hidden, mo.status AS memory_status, mo.members_only AS memory_members_only,
                mo.author_user_id AS memory_author_user_id, mo.author_guest_token_id AS memory_author_guest_token_id
           FROM media m LEFT JOIN memories mo ON mo.id = m.memory_id
          WHERE m.id = $1`,
        [id],
      );
      return rows[0];
    },

    /** The gallery in order; bounded by MEDIA_GALLERY_MAX at upload. */
    async listGallery(
      memorialId: string,
      o: { kind?: MediaKind; after?: [number, string]; limit: number },
    ): Promise<MediaRow[]> {
      const { rows } = await db.query<MediaRow>(
        `SELECT ${mediaColumns}
           FROM media m
          WHERE m.memorial_id = $1 AND m.memory_id IS NULL AND m.hidden_at IS NULL
            AND ($2::text IS NULL OR m.kind = $2)
            AND ($3::int IS NULL OR (m.position, m.id) > ($3::int, $4::uuid))
          ORDER BY m.position, m.id
          LIMIT $5`,
        [memorialId, o.kind ?? null, o.after?.[0] ?? null, o.after?.[1] ?? null, o.limit],
      );
      return rows;
    },

    /** Media of several memories in one statement (a page of the wall), each memory's in order. */
    async galleryIds(tx: Queryable, memorialId: string): Promise<{ shown: string[]; hidden: string[] }> {
      const { rows } = await tx.query<{ id: string; hidden: boolean }>(
        `SELECT id, hidden_at IS NOT NULL AS hidden FROM media WHERE memorial_id = $1 AND memory_id IS NULL
          ORDER BY position, id FOR UPDATE`,
        [memorialId],
      );
      return {
        shown: rows.filter((r) => !r.hidden).map((r) => r.id),
        hidden: rows.filter((r) => r.hidden).map((r) => r.id),
      };
    },

    async reorder(tx: Queryable, memorialId: string, orderedIds: string[]): Promise<void> {
      await tx.query(
        `UPDATE media m SET position = o.ord - 1, updated_at = now()
           FROM unnest($2::uuid[]) WITH ORDINALITY AS o(id, ord)
          WHERE m.id = o.id AND m.memorial_id = $1 AND m.memory_id IS NULL AND m.position <> o.ord - 1`,
        [memorialId, orderedIds],
      );
    },

    async updateCaption(id: string, caption: string | null): Promise<void> {
      await db.query('UPDATE media SET caption = $2, updated_at = now() WHERE id = $1', [id, caption]);
    },

    async delete(tx: Queryable, id: string): Promise<boolean> {
      await lockMemoryOfMedia(tx, id);
      const { rowCount } = await tx.query('DELETE FROM media WHERE id = $1', [id]);
      return rowCount > 0;
    },

    /** What serving bytes needs, in one statement. */
    async findForServing(mediaId: string, variant: string) {
      const { rows } = await db.query<{
        memorial_id: string;
        memory_id: string | null;
        hidden: boolean;
        memory_status: MemoryStatus | null;
        memory_members_only: boolean | null;
        memory_author_user_id: string | null;
        memory_author_guest_token_id: string | null;
        content_type: string;
        size_bytes: number;
        sha256: string;
        storage_key: string;
      }>(
        `SELECT m.memorial_id, m.memory_id, (m.hidden_at IS NOT NULL OR mo.hidden_at IS NOT NULL) AS hidden,
                mo.status AS memory_status, mo.members_only AS memory_members_only,
                mo.author_user_id AS memory_author_user_id, mo.author_guest_token_id AS memory_author_guest_token_id,
                v.content_type, v.size_bytes, v.sha256, v.storage_key
           FROM media m
           JOIN media_variants v ON v.media_id = m.id AND v.name = $2
           LEFT JOIN memories mo ON mo.id = m.memory_id
          WHERE m.id = $1`,
        [mediaId, variant],
      );
      return rows[0];
    },

    // Background processing.
    async findForProcessing(id: string) {
      const { rows } = await db.query<{
        id: string;
        kind: MediaKind;
        width: number | null;
        source_key: string | null;
        names: string[];
      }>(
        `SELECT m.id, m.kind, m.width, m.source_key,
                coalesce((SELECT array_agg(v.name) FROM media_variants v WHERE v.media_id = m.id), '{}') AS names
           FROM media m WHERE m.id = $1`,
        [id],
      );
      return rows[0];
    },
    /**
     * What a background job made: the variants (none when it gave up) and the final status, in one
     * transaction that locks the media's memory first (`lockMemoryOfMedia`). Throws 23503 when the media was
     * deleted meanwhile.
     */
    async finishProcessing(id: string, status: 'ready' | 'failed', variants: StoredVariant[] = []) {
      await db.transaction(async (tx) => {
        await lockMemoryOfMedia(tx, id);
        await this.insertVariants(tx, id, variants);
        await tx.query(`UPDATE media SET status = $2, source_key = NULL, updated_at = now() WHERE id = $1`, [
          id,
          status,
        ]);
      });
    },
  };
}
export type MediaRepository = ReturnType<typeof mediaRepository>;
