import type { Queryable } from '../../db/client.ts';
import { secretMac } from '../secret-mac.ts';

/** A signed link lives at most this long. */
export const SIGNED_URL_MAX_AGE_S = 3600;
/**
 * Expiry times are rounded to this step, so the same media gets the same URL for a while and the
 * browser can reuse what it cached; a link therefore lives between 45 and 60 minutes.
 */
const EXPIRY_STEP_S = 900;

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

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
  const macs = secretMac(opts.db, 'media-url-key');
  const message = (mediaId: string, variant: string, exp: number) => `media:${mediaId}:${variant}:${exp}`;
  const base = `${opts.apiUrl}/core/media`;

  return {
    /** URL builder for one response: every link in it shares one expiry. */
    async urls(now = Date.now()): Promise<MediaUrls> {
      const mac = await macs.macFn();
      const nowS = Math.floor(now / 1000);
      const exp = Math.floor(nowS / EXPIRY_STEP_S) * EXPIRY_STEP_S + SIGNED_URL_MAX_AGE_S;
      return {
        expiresAt: new Date(exp * 1000),
        url(mediaId, variant, open) {
          const path = `${base}/${mediaId}/${variant}`;
          return open ? path : `${path}?exp=${exp}&sig=${mac(message(mediaId, variant, exp))}`;
        },
      };
    },
    async check(
      mediaId: string,
      variant: string,
      exp: string | undefined,
      sig: string | undefined,
      now = Date.now(),
    ) {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid' as SignatureCheck;
      if (!(await macs.matches(message(mediaId, variant, Number(exp)), sig)))
        return 'invalid' as SignatureCheck;
      const nowS = Math.floor(now / 1000);
      const expS = Number(exp);
      if (expS - nowS > SIGNED_URL_MAX_AGE_S) return 'invalid' as SignatureCheck;
      return (expS <= nowS ? 'expired' : 'valid') as SignatureCheck;
    },
  };
}
export type MediaUrlSigner = ReturnType<typeof mediaUrlSigner>;
