import type { PrintedBookRequest, PrintedBookWarning } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { FileJobRow, FileStore, ReadyFileRow } from '../../lib/generated-files.ts';
import { PORTRAIT_CANDIDATE } from '../../shared/portrait.ts';

export type BookRow = {
  id: string;
  memorial_id: string;
  requested_by: string | null;
  status: 'queued' | 'rendering' | 'ready' | 'failed';
  progress: number;
  bleed: boolean;
  crop_marks: boolean;
  storage_key: string | null;
  size_bytes: string | null;
  page_count: number | null;
  warnings: PrintedBookWarning[];
  created_at: Date;
  finished_at: Date | null;
};

export type BookJobRow = BookRow & FileJobRow;
export type BookFileRow = ReadyFileRow & { memorialId: string; name: string };
export type MadeBook = {
  pageCount: number;
  warnings: PrintedBookWarning[];
  name: string;
  memorialId: string;
};

export function printedBookRepository(db: Queryable) {
  return {
    /** The memorial's book (there is one at most). */
    async current(memorialId: string): Promise<BookRow | undefined> {
      const { rows } = await db.query<BookRow>(
        `SELECT id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, storage_key,
              size_bytes, page_count, warnings, created_at, finished_at
         FROM printed_books WHERE memorial_id = $1`,
        [memorialId],
      );
      return rows[0];
    },

    async setProgress(id: string, progress: number) {
      await db.query(`UPDATE printed_books SET progress = $2 WHERE id = $1 AND status = 'rendering'`, [
        id,
        progress,
      ]);
    },

    /** The widest stored variant of a photo (the upload itself is not kept, docs/exports.md). */
    async widestVariant(mediaId: string) {
      const { rows } = await db.query<{ storage_key: string; width: number; height: number }>(
        `SELECT storage_key, width, height FROM media_variants
        WHERE media_id = $1 AND width IS NOT NULL AND height IS NOT NULL
        ORDER BY (name = 'original') DESC, width DESC, (content_type = 'image/jpeg') DESC LIMIT 1`,
        [mediaId],
      );
      return rows[0];
    },

    /** What the book prints: the page, its shown gallery, published memories with their photos, the counts and the guestbook. */
    async content(memorialId: string) {
      const { rows } = await db.query<{
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
        birth_place: string | null;
        death_place: string | null;
        quote: string | null;
        biography_html: string;
      }>(
        `SELECT first_name, last_name, birth_date::text, death_date::text, birth_place, death_place, quote,
              biography_html
         FROM memorials m WHERE m.id = $1`,
        [memorialId],
      );
      const m = rows[0];
      if (!m) throw new Error('memorial gone');
      // The gallery's shown photos in its order; videos cannot be printed.
      const { rows: galleryRows } = await db.query<{ id: string; caption: string | null }>(
        `SELECT me.id::text, me.caption FROM memorials m JOIN media me ON ${PORTRAIT_CANDIDATE}
        WHERE m.id = $1 ORDER BY me.position, me.id`,
        [memorialId],
      );
      const { rows: memories } = await db.query<{
        id: string;
        year_label: string;
        body: string;
        author_name: string | null;
      }>(
        `SELECT x.id::text, x.year_label, x.body,
              CASE WHEN x.author_kind = 'guest' THEN x.author_name ELSE u.name END AS author_name
         FROM memories x LEFT JOIN users u ON u.id = x.author_user_id
        WHERE x.memorial_id = $1 AND x.status = 'published' AND x.hidden_at IS NULL
        ORDER BY x.published_at, x.id`,
        [memorialId],
      );
      const { rows: photos } = await db.query<{ id: string; memory_id: string }>(
        `SELECT id::text, memory_id::text FROM media
        WHERE memory_id = ANY($1::uuid[]) AND kind = 'image' AND status = 'ready' AND hidden_at IS NULL
        ORDER BY position, id`,
        [memories.map((x) => x.id)],
      );
      const { rows: counts } = await db.query<{ candles: number; flowers: number }>(
        `SELECT count(*) FILTER (WHERE kind = 'candle')::int AS candles,
              count(*) FILTER (WHERE kind = 'flower')::int AS flowers
         FROM candles WHERE memorial_id = $1`,
        [memorialId],
      );
      // The guestbook of the funeral (docs/funeral-day.md): what the family did not hide, in the order signed.
      const { rows: guestbook } = await db.query<{ name: string; message: string | null }>(
        `SELECT name, message FROM guestbook_entries
        WHERE memorial_id = $1 AND NOT hidden ORDER BY created_at, id`,
        [memorialId],
      );
      return { m, galleryRows, memories, photos, counts, guestbook };
    },

    /** A new book in place of the older one (its file goes by the delete trigger's job). */
    async replace(memorialId: string, requestedBy: string, options: PrintedBookRequest): Promise<BookRow> {
      await db.query('DELETE FROM printed_books WHERE memorial_id = $1', [memorialId]);
      const { rows } = await db.query<BookRow>(
        `INSERT INTO printed_books (memorial_id, requested_by, bleed, crop_marks) VALUES ($1, $2, $3, $4)
         RETURNING id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, storage_key,
                   size_bytes, page_count, warnings, created_at, finished_at`,
        [memorialId, requestedBy, options.bleed, options.cropMarks],
      );
      return rows[0]!;
    },
  };
}

/** The statements the generated-file pipeline runs on `printed_books`. */
export function printedBookFileStore(
  db: Queryable,
  setProgress: (id: string, progress: number) => Promise<unknown>,
): FileStore<BookJobRow, MadeBook, BookFileRow> {
  return {
    async claim(id) {
      const { rows } = await db.query<BookRow>(
        `UPDATE printed_books SET status = 'rendering', progress = 2, started_at = now()
          WHERE id = $1 AND status IN ('queued', 'rendering')
         RETURNING id::text, memorial_id::text, requested_by, status, progress, bleed, crop_marks, created_at`,
        [id],
      );
      const row = rows[0];
      return row && { ...row, memorialId: row.memorial_id, requestedBy: row.requested_by };
    },
    progress: (id, fraction) => setProgress(id, fraction * 100),
    refuse: (q, id, message) =>
      q.query(
        `UPDATE printed_books SET status = 'failed', finished_at = now(), error = $2
          WHERE id = $1 AND status = 'rendering'`,
        [id, message],
      ),
    async ready(tx, id, file, made) {
      const { rows } = await tx.query<{ email: string | null; name: string | null }>(
        `UPDATE printed_books b SET status = 'ready', progress = 100, storage_key = $2, size_bytes = $3,
                page_count = $4, warnings = $5, finished_at = now()
          WHERE b.id = $1 AND b.status = 'rendering'
         RETURNING (SELECT email FROM users WHERE id = b.requested_by) AS email,
                   (SELECT name FROM users WHERE id = b.requested_by) AS name`,
        [id, file.key, file.size, made.pageCount, JSON.stringify(made.warnings)],
      );
      return rows[0];
    },
    failed: (id, o) =>
      db.query(
        o.final
          ? `UPDATE printed_books SET status = 'failed', finished_at = now() WHERE id = $1`
          : `UPDATE printed_books SET status = 'queued', progress = 0 WHERE id = $1`,
        [id],
      ),
    expiresAt: async () => null,
    deleteExpired: async () => undefined,
    async file(id) {
      const { rows } = await db.query<BookRow & { first_name: string; last_name: string }>(
        `SELECT b.id::text, b.memorial_id::text, b.status, b.storage_key, b.size_bytes, b.created_at,
                m.first_name, m.last_name
           FROM printed_books b JOIN memorials m ON m.id = b.memorial_id WHERE b.id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        storageKey: row.storage_key,
        sizeBytes: Number(row.size_bytes),
        ready: row.status === 'ready',
        expiresAt: null,
        memorialId: row.memorial_id,
        name: `${row.first_name} ${row.last_name}`,
      };
    },
  };
}
