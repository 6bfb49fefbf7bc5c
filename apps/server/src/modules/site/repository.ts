import type { Queryable } from '../../db/client.ts';
import { PORTRAIT_CANDIDATE, PORTRAIT_ORDER } from '../../shared/portrait.ts';

/** The reads behind the site's own files: the sitemap and the share images. */
export function siteRepository(db: Queryable) {
  return {
    /**
     * Public, published pages whose family chose to be found by search engines (the sitemap), newest change
     * first; at most `limit` (a sitemap file holds 50,000 addresses).
     */
    async findableMemorials(limit: number): Promise<Array<{ slug: string; updated_at: Date | string }>> {
      const { rows } = await db.query<{ slug: string; updated_at: Date | string }>(
        `SELECT slug, updated_at FROM memorials
          WHERE visibility = 'public' AND status = 'active' AND search_engines AND deleted_at IS NULL
          ORDER BY updated_at DESC, id LIMIT $1`,
        [limit],
      );
      return rows;
    },

    /** Active companies' addresses for the sitemap (the directory's pages). */
    async companySlugs(limit: number): Promise<string[]> {
      const { rows } = await db.query<{ slug: string }>(
        `SELECT slug FROM companies WHERE state = 'active' ORDER BY slug LIMIT $1`,
        [limit],
      );
      return rows.map((r) => r.slug);
    },

    /**
     * The portrait of a page for its share image, as the page's head shows it: the cover when it is a ready,
     * shown photo, else the first photo of the gallery; the stored variant closest above 800 px wide (the
     * upload itself is not kept). Null without a photo.
     */
    async portraitOf(memorialId: string): Promise<{ mediaId: string; storageKey: string } | null> {
      const { rows } = await db.query<{ media_id: string; storage_key: string }>(
        `SELECT me.id AS media_id, v.storage_key
           FROM memorials m
           JOIN media me ON ${PORTRAIT_CANDIDATE}
           JOIN media_variants v ON v.media_id = me.id AND v.width IS NOT NULL
                                AND v.content_type IN ('image/jpeg', 'image/webp', 'image/png')
          WHERE m.id = $1
          ORDER BY ${PORTRAIT_ORDER}, (v.width >= 800) DESC,
                   CASE WHEN v.width >= 800 THEN v.width ELSE -v.width END
          LIMIT 1`,
        [memorialId],
      );
      const r = rows[0];
      return r ? { mediaId: r.media_id, storageKey: r.storage_key } : null;
    },
  };
}
export type SiteRepository = ReturnType<typeof siteRepository>;
