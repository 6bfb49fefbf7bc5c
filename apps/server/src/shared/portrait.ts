import type { Queryable } from '../db/client.ts';

/**
 * The page's portrait, as the memorial page's head shows it: the cover the family picked when it is a ready,
 * shown photo of the gallery, else the gallery's first such photo in its order. The one rule for every place
 * that shows "the page's photo" (the share image, the printed book's cover).
 *
 * SQL pieces for a query over `memorials m` joined with `media me`: which gallery photos may be the portrait,
 * and their order (the portrait first).
 */
export const PORTRAIT_CANDIDATE = `me.memorial_id = m.id AND me.memory_id IS NULL AND me.kind = 'image'
  AND me.status = 'ready' AND me.hidden_at IS NULL`;
export const PORTRAIT_ORDER = `(me.id = m.cover_media_id) DESC, me.position, me.id`;

/** The media id of the page's portrait, or null when the gallery has no ready, shown photo. */
export async function portraitMediaId(db: Queryable, memorialId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT me.id::text FROM memorials m JOIN media me ON ${PORTRAIT_CANDIDATE}
      WHERE m.id = $1 ORDER BY ${PORTRAIT_ORDER} LIMIT 1`,
    [memorialId],
  );
  return rows[0]?.id ?? null;
}
