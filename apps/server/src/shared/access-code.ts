import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { ACCESS_CODE_LENGTH } from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import { getOrCreateSecret } from '../lib/secrets.ts';

/**
 * Access codes are stored twice and never in clear: a keyed hash (HMAC-SHA256) to look a code up,
 * and AES-256-GCM ciphertext so owners and editors can be shown it. Both keys live in server_secrets.
 * Never log a code or pass it to a logger.
 */
export function accessCodeCrypto(db: Queryable) {
  let keys: Promise<{ hmac: Buffer; aes: Buffer }> | undefined;
  const load = () =>
    (keys ??= Promise.all([
      getOrCreateSecret(db, 'access-code-hmac-key', () => randomBytes(32).toString('base64')),
      getOrCreateSecret(db, 'access-code-aes-key', () => randomBytes(32).toString('base64')),
    ])
      .then(([hmac, aes]) => ({ hmac: Buffer.from(hmac, 'base64'), aes: Buffer.from(aes, 'base64') }))
      .catch((err: unknown) => {
        keys = undefined;
        throw err;
      }));

  return {
    /** Loads the keys now: call before a transaction, since PGlite has one connection and loading uses `db`. */
    async preload(): Promise<void> {
      await load();
    },
    generate(): string {
      return randomInt(0, 10 ** ACCESS_CODE_LENGTH)
        .toString()
        .padStart(ACCESS_CODE_LENGTH, '0');
    },
    async hash(code: string): Promise<string> {
      const { hmac } = await load();
      return createHmac('sha256', hmac).update(`access-code:${code}`).digest('base64url');
    },
    /** A keyed hash of anything else worth not storing in clear (client addresses). */
    async hashOther(purpose: string, value: string): Promise<string> {
      const { hmac } = await load();
      return createHmac('sha256', hmac).update(`${purpose}:${value}`).digest('base64url');
    },
    async encrypt(code: string): Promise<string> {
      const { aes } = await load();
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', aes, iv);
      const ct = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}`;
    },
    async decrypt(stored: string): Promise<string> {
      const { aes } = await load();
      const raw = Buffer.from(stored.replace(/^v1\./, ''), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', aes, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
export type AccessCodeCrypto = ReturnType<typeof accessCodeCrypto>;
