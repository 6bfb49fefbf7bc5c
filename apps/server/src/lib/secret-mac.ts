import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { getOrCreateSecret } from './secrets.ts';

/**
 * HMAC-SHA256 with a key of its own kept in server_secrets (made on first use, loaded once): what signed
 * links (media bytes, export downloads) are built on.
 */
export function secretMac(db: Queryable, secretName: string) {
  let key: Promise<Buffer> | undefined;
  const loadKey = () =>
    (key ??= getOrCreateSecret(db, secretName, () => randomBytes(32).toString('base64'))
      .then((k) => Buffer.from(k, 'base64'))
      .catch((err: unknown) => {
        key = undefined;
        throw err;
      }));
  const macWith = (k: Buffer, message: string) => createHmac('sha256', k).update(message).digest('base64url');
  return {
    /** A synchronous MAC once the key is loaded, for the many links of one answer. */
    async macFn(): Promise<(message: string) => string> {
      const k = await loadKey();
      return (message) => macWith(k, message);
    },
    /** Whether `sig` is the MAC of `message` (compared in constant time; a malformed one never matches). */
    async matches(message: string, sig: string): Promise<boolean> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
      const expected = Buffer.from(macWith(await loadKey(), message));
      return timingSafeEqual(expected, Buffer.from(sig));
    },
  };
}
