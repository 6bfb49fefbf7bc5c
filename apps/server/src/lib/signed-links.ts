import type { Queryable } from '../db/client.ts';
import { secretMac } from './secret-mac.ts';

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/**
 * Links that work without signing in for a while: `exp` (Unix seconds) and `sig`, the HMAC-SHA256 of
 * `<scope>:<id>:<exp>` with a key of its own (`secretName` in server_secrets). One per kind of link: media bytes,
 * export downloads, invoices, the printed book, the presentation's music and video.
 */
export function signedLinks(db: Queryable, secretName: string, scope: string) {
  const macs = secretMac(db, secretName);
  const message = (id: string, exp: number) => `${scope}:${id}:${exp}`;
  const expOf = (expiresAt: Date | number) =>
    Math.floor((typeof expiresAt === 'number' ? expiresAt : expiresAt.getTime()) / 1000);
  /** A synchronous `(id, exp in seconds) => query string` once the key is loaded, for the many links of one answer. */
  async function signFn(): Promise<(id: string, exp: number) => string> {
    const mac = await macs.macFn();
    return (id, exp) => `exp=${exp}&sig=${mac(message(id, exp))}`;
  }
  return {
    /** `exp=…&sig=…` for `id` until `expiresAt` (a Date or epoch milliseconds), rounded down to the second. */
    async sign(id: string, expiresAt: Date | number): Promise<string> {
      return (await signFn())(id, expOf(expiresAt));
    },
    signFn,
    /**
     * Whether `exp` and `sig` were made here for `id`: 'expired' once `exp` has passed; 'invalid' for anything
     * altered or malformed, and for an expiry further away than `maxAgeS` (when given) that this server never
     * hands out.
     */
    async check(
      id: string,
      exp: string | undefined,
      sig: string | undefined,
      opts: { now?: number; maxAgeS?: number } = {},
    ): Promise<SignatureCheck> {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'invalid';
      if (!(await macs.matches(message(id, Number(exp)), sig))) return 'invalid';
      const left = Number(exp) - Math.floor((opts.now ?? Date.now()) / 1000);
      if (opts.maxAgeS !== undefined && left > opts.maxAgeS) return 'invalid';
      return left <= 0 ? 'expired' : 'valid';
    },
  };
}
