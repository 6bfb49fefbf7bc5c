import type { PresentationResolution, PresentationSlide } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { FileJobRow, FileStore, ReadyFileRow } from '../../lib/generated-files.ts';

export type MusicRow = {
  id: string;
  memorial_id: string;
  storage_key: string;
  content_type: string;
  file_name: string | null;
  size_bytes: string;
  sha256: string;
  duration_ms: number;
};
export type SettingsRow = {
  slides: PresentationSlide[];
  seconds_per_slide: number;
  title_text: string | null;
  closing_text: string | null;
  updated_at: Date;
};
export type VideoRow = {
  id: string;
  memorial_id: string;
  requested_by: string | null;
  resolution: PresentationResolution;
  status: 'queued' | 'rendering' | 'ready' | 'failed';
  progress: number;
  storage_key: string | null;
  size_bytes: string | null;
  duration_ms: number | null;
  error: string | null;
  created_at: Date;
  expires_at: Date | null;
};

export type VideoJobRow = VideoRow & FileJobRow;
export type VideoFileRow = ReadyFileRow & {
  memorialId: string;
  name: string;
  resolution: PresentationResolution;
};
export type MadeVideo = { durationMs: number; name: string };

export function presentationRepository(db: Queryable) {
  return {
    async music(memorialId: string): Promise<MusicRow | undefined> {
      const { rows } = await db.query<MusicRow>(
        'SELECT *, id::text AS id FROM presentation_music WHERE memorial_id = $1',
        [memorialId],
      );
      return rows[0];
    },

    async musicById(id: string): Promise<MusicRow | undefined> {
      const { rows } = await db.query<MusicRow>(
        'SELECT *, id::text AS id, memorial_id::text AS memorial_id FROM presentation_music WHERE id = $1',
        [id],
      );
      return rows[0];
    },

    /** Where the page's music is stored, if it has any. */
    async musicKey(memorialId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ storage_key: string }>(
        'SELECT storage_key FROM presentation_music WHERE memorial_id = $1',
        [memorialId],
      );
      return rows[0]?.storage_key;
    },

    /** The page's music in place of what was there (its file is deleted by the trigger). */
    async replaceMusic(m: {
      id: string;
      memorialId: string;
      key: string;
      contentType: string;
      fileName: string | null;
      sizeBytes: number;
      sha256: string;
      durationMs: number;
      uploadedBy: string | null;
    }) {
      await db.query('DELETE FROM presentation_music WHERE memorial_id = $1', [m.memorialId]);
      await db.query(
        `INSERT INTO presentation_music (id, memorial_id, storage_key, content_type, file_name, size_bytes, sha256, duration_ms, uploaded_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          m.id,
          m.memorialId,
          m.key,
          m.contentType,
          m.fileName,
          m.sizeBytes,
          m.sha256,
          m.durationMs,
          m.uploadedBy,
        ],
      );
    },

    /** Removes the page's music; returns its id, undefined when there was none. */
    async removeMusic(memorialId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ id: string }>(
        'DELETE FROM presentation_music WHERE memorial_id = $1 RETURNING id::text',
        [memorialId],
      );
      return rows[0]?.id;
    },

    async settings(memorialId: string): Promise<SettingsRow | undefined> {
      const { rows } = await db.query<SettingsRow>(
        'SELECT slides, seconds_per_slide, title_text, closing_text, updated_at FROM presentation_settings WHERE memorial_id = $1',
        [memorialId],
      );
      return rows[0];
    },

    async saveSettings(
      memorialId: string,
      s: {
        slides: string;
        secondsPerSlide: number;
        titleText: string | null;
        closingText: string | null;
        updatedBy: string | null;
      },
    ) {
      await db.query(
        `INSERT INTO presentation_settings (memorial_id, slides, seconds_per_slide, title_text, closing_text, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (memorial_id) DO UPDATE SET slides = EXCLUDED.slides, seconds_per_slide = EXCLUDED.seconds_per_slide,
           title_text = EXCLUDED.title_text, closing_text = EXCLUDED.closing_text, updated_by = EXCLUDED.updated_by,
           updated_at = now()`,
        [memorialId, s.slides, s.secondsPerSlide, s.titleText, s.closingText, s.updatedBy],
      );
    },

    async resetSettings(memorialId: string) {
      await db.query('DELETE FROM presentation_settings WHERE memorial_id = $1', [memorialId]);
    },

    /** How many of the chosen photos (the gallery's, shown) and memories (published, shown) are on the page. */
    async countChoosable(memorialId: string, photoIds: string[], memoryIds: string[]) {
      const { rows: found } = await db.query<{ n: number; m: number }>(
        `SELECT (SELECT count(*)::int FROM media WHERE memorial_id = $1 AND id = ANY($2::uuid[]) AND memory_id IS NULL
                   AND kind = 'image' AND hidden_at IS NULL) AS n,
                (SELECT count(*)::int FROM memories WHERE memorial_id = $1 AND id = ANY($3::uuid[])
                   AND status = 'published' AND hidden_at IS NULL) AS m`,
        [memorialId, photoIds, memoryIds],
      );
      return found[0]!;
    },

    async newestVideo(memorialId: string): Promise<VideoRow | undefined> {
      const { rows } = await db.query<VideoRow>(
        `SELECT *, id::text AS id FROM presentation_videos WHERE memorial_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [memorialId],
      );
      return rows[0];
    },

    /** A video being made for the page, if any. */
    async videoUnderway(memorialId: string): Promise<VideoRow | undefined> {
      const { rows: busy } = await db.query<VideoRow>(
        `SELECT *, id::text AS id FROM presentation_videos WHERE memorial_id = $1 AND status IN ('queued', 'rendering')
          ORDER BY created_at DESC LIMIT 1`,
        [memorialId],
      );
      return busy[0];
    },

    /** A new video in place of the page's older one; expired videos of any page go too. */
    async replaceVideo(memorialId: string, requestedBy: string, resolution: PresentationResolution) {
      await db.query('DELETE FROM presentation_videos WHERE memorial_id = $1 OR expires_at < now()', [
        memorialId,
      ]);
      const { rows } = await db.query<VideoRow>(
        `INSERT INTO presentation_videos (memorial_id, requested_by, resolution) VALUES ($1, $2, $3)
         RETURNING *, id::text AS id`,
        [memorialId, requestedBy, resolution],
      );
      return rows[0]!;
    },

    /** The page's title slide facts. */
    async memorialForSlides(memorialId: string) {
      const { rows: mrows } = await db.query<{
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
        quote: string | null;
      }>(
        'SELECT first_name, last_name, birth_date::text, death_date::text, quote FROM memorials WHERE id = $1',
        [memorialId],
      );
      const m = mrows[0];
      if (!m) throw new Error('memorial gone');
      return m;
    },

    /** The gallery's shown photos (with the widest stored variant) and the published, shown memories. */
    async slideSources(memorialId: string) {
      const { rows: photos } = await db.query<{ id: string; caption: string | null; storage_key: string }>(
        `SELECT m.id::text, m.caption, v.storage_key FROM media m
         JOIN LATERAL (SELECT storage_key FROM media_variants v WHERE v.media_id = m.id AND v.width IS NOT NULL
                        ORDER BY (v.name = 'original') DESC, v.width DESC, (v.content_type = 'image/jpeg') DESC LIMIT 1) v ON true
        WHERE m.memorial_id = $1 AND m.memory_id IS NULL AND m.kind = 'image' AND m.hidden_at IS NULL
          AND m.status <> 'processing'
        ORDER BY m.position, m.id`,
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
        WHERE x.memorial_id = $1 AND x.status = 'published' AND x.hidden_at IS NULL`,
        [memorialId],
      );
      return { photos, memories };
    },
  };
}

/** The statements the generated-file pipeline runs on `presentation_videos`. */
export function presentationVideoStore(
  db: Queryable,
  renderFailedMessage: string,
): FileStore<VideoJobRow, MadeVideo, VideoFileRow> {
  return {
    async claim(id) {
      const { rows } = await db.query<VideoRow>(
        `UPDATE presentation_videos SET status = 'rendering', progress = 0, error = NULL
          WHERE id = $1 AND status IN ('queued', 'rendering') RETURNING *, id::text AS id`,
        [id],
      );
      const row = rows[0];
      return row && { ...row, memorialId: row.memorial_id, requestedBy: row.requested_by };
    },
    progress: (id, fraction) =>
      db.query(`UPDATE presentation_videos SET progress = $2 WHERE id = $1 AND status = 'rendering'`, [
        id,
        Math.round(fraction * 1000) / 1000,
      ]),
    refuse: (q, id, message) =>
      q.query(
        `UPDATE presentation_videos SET status = 'failed', finished_at = now(), error = $2
          WHERE id = $1 AND status = 'rendering'`,
        [id, message],
      ),
    async ready(tx, id, file, made) {
      const { rows } = await tx.query<{ email: string | null; name: string | null }>(
        `UPDATE presentation_videos v SET status = 'ready', progress = 1, storage_key = $2, size_bytes = $3,
                duration_ms = $4, finished_at = now(), expires_at = $5
           WHERE v.id = $1 AND v.status = 'rendering'
         RETURNING (SELECT email FROM users WHERE id = v.requested_by), (SELECT name FROM users WHERE id = v.requested_by)`,
        [id, file.key, file.size, made.durationMs, file.expiresAt],
      );
      return rows[0];
    },
    failed: (id, o) =>
      o.final
        ? db.query(
            `UPDATE presentation_videos SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`,
            [id, o.message ?? renderFailedMessage],
          )
        : db.query(`UPDATE presentation_videos SET status = 'queued' WHERE id = $1`, [id]),
    async expiresAt(id) {
      const { rows } = await db.query<{ expires_at: Date | null }>(
        'SELECT expires_at FROM presentation_videos WHERE id = $1',
        [id],
      );
      return rows[0] ? rows[0].expires_at : undefined;
    },
    deleteExpired: (id) =>
      db.query('DELETE FROM presentation_videos WHERE id = $1 AND expires_at <= now()', [id]),
    async file(id) {
      const { rows } = await db.query<VideoRow & { first_name: string; last_name: string }>(
        `SELECT v.*, v.id::text AS id, m.first_name, m.last_name FROM presentation_videos v
           JOIN memorials m ON m.id = v.memorial_id WHERE v.id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        storageKey: row.storage_key,
        sizeBytes: Number(row.size_bytes),
        ready: row.status === 'ready',
        expiresAt: row.expires_at,
        memorialId: row.memorial_id,
        name: `${row.first_name} ${row.last_name}`,
        resolution: row.resolution,
      };
    },
  };
}
