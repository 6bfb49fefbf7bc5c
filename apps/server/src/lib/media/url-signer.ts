import type { Queryable } from '../../db/client.ts';
import { signedLinks, type SignatureCheck } from '../signed-links.ts';

/** A signed link lives at most this long. */
export const SIGNED_URL_MAX_AGE_S = 3600;
/**
 * Expiry times are rounded to this step, so the same media gets the same URL for a while and the
 * browser can reuse what it cached; a link therefore lives between 45 and 60 minutes.
 */
const EXPIRY_STEP_S = 900;

export type { SignatureCheck };

export interface MediaUrls {
  /** `/core/media/<id>/<variant>`; signed (`?exp=&sig=`) unless `open` (anyone may see it anyway). */
  url(mediaId: string, variant: string, open: boolean): string;
  /** When the signed links made by this instance expire. */
  readonly expiresAt: Date;
}

/**
 * Short-lived signed URLs for media bytes (HMAC-SHA256 with a key stored in server_secrets), so an
 * <img src> works without an Authorization header but a link cannot be guessed or kept for long.
 */
export function mediaUrlSigner(opts: { db: Queryable; apiUrl: string }) {
  // The id signed is `<media id>:<variant>`: a link to one variant opens no other.
  const links = signedLinks(opts.db, 'media-url-key', 'media');
  const base = `${opts.apiUrl}/core/media`;

  return {
    /** URL builder for one response: every link in it shares one expiry. */
    async urls(now = Date.now()): Promise<MediaUrls> {
      const query = await links.signFn();
      const nowS = Math.floor(now / 1000);
      const exp = Math.floor(nowS / EXPIRY_STEP_S) * EXPIRY_STEP_S + SIGNED_URL_MAX_AGE_S;
      return {
        expiresAt: new Date(exp * 1000),
        url(mediaId, variant, open) {
          const path = `${base}/${mediaId}/${variant}`;
          return open ? path : `${path}?${query(`${mediaId}:${variant}`, exp)}`;
        },
      };
    },
    check(
      mediaId: string,
      variant: string,
      exp: string | undefined,
      sig: string | undefined,
      now = Date.now(),
    ) {
      return links.check(`${mediaId}:${variant}`, exp, sig, { now, maxAgeS: SIGNED_URL_MAX_AGE_S });
    },
  };
}
export type MediaUrlSigner = ReturnType<typeof mediaUrlSigner>;
