import type { MediaItem, MediaVariant } from '@aandenken/contract';
import { MEDIA_WEB_WIDTH } from '@aandenken/contract';
import type { Caller } from '../lib/auth.ts';
import { iso } from './time.ts';
import type { MediaUrls } from '../lib/media/url-signer.ts';
import type { MediaRow } from './media-rows.ts';

export function isOwnUpload(
  caller: Caller,
  row: Pick<MediaRow, 'uploaded_by_user_id' | 'uploaded_by_guest_token_id'>,
) {
  if (caller.kind === 'user') return row.uploaded_by_user_id === caller.userId;
  if (caller.kind === 'guest')
    return row.uploaded_by_guest_token_id !== null && row.uploaded_by_guest_token_id === caller.tokenId;
  return false;
}

/**
 * A media row as the API shows it, with ready-to-use URLs. `open` media (anyone may see them)
 * get plain URLs that caches may keep; all others get signed, short-lived ones.
 */
export function presentMedia(
  row: MediaRow,
  ctx: { caller: Caller; urls: MediaUrls; open: boolean },
): MediaItem {
  const url = (name: string) => ctx.urls.url(row.id, name, ctx.open);
  const variants: MediaVariant[] = row.variants.map((v) => ({ ...v, url: url(v.name) }));
  const byFormat = (ext: string) =>
    variants.filter((v) => v.name.endsWith(ext) && v.width !== null).sort((a, b) => a.width! - b.width!);
  const webp = byFormat('.webp');
  const jpeg = byFormat('.jpg');
  // The default: the largest WebP up to web size (always exists for images: it is made on upload).
  const pick = (list: MediaVariant[]) =>
    [...list].reverse().find((v) => v.width! <= MEDIA_WEB_WIDTH) ?? list[0];
  const main = row.kind === 'video' ? variants.find((v) => v.name === 'original') : pick(webp);
  const fallback = row.kind === 'image' ? pick(jpeg) : undefined;
  const srcSet = (list: MediaVariant[]) => list.map((v) => `${v.url} ${v.width}w`).join(', ');
  return {
    id: row.id,
    memorialId: row.memorial_id,
    memoryId: row.memory_id,
    kind: row.kind,
    status: row.status,
    contentType: row.content_type,
    caption: row.caption,
    position: row.position,
    width: row.width,
    height: row.height,
    sizeBytes: row.size_bytes,
    url: main?.url ?? '',
    fallbackUrl: fallback?.url ?? null,
    srcSet: row.kind === 'image' && webp.length > 0 ? { webp: srcSet(webp), jpeg: srcSet(jpeg) } : null,
    variants,
    urlsExpireAt: ctx.open ? null : ctx.urls.expiresAt.toISOString(),
    ownUpload: isOwnUpload(ctx.caller, row),
    createdAt: iso(row.created_at),
  };
}
