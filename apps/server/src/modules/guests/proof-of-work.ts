import { randomBytes } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { AccessCodeChallenge } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { getOrCreateSecret } from '../../lib/secrets.ts';
import { guestRepository } from './repository.ts';

/** How long a challenge may take to solve and send back. */
export const CHALLENGE_TTL_MS = 10 * 60_000;

/**
 * Self-hosted proof of work (ALTCHA v1, `altcha-lib`): a challenge hides a random number up to `maxNumber`
 * behind SHA-256(salt + number), signed with an HMAC key from server_secrets, with its expiry in the salt.
 * A solution is accepted once: its signature is stored until the challenge would have expired.
 * No third party is asked anything; the browser solves it with the same library from our own bundle.
 */
export function proofOfWork(db: Queryable, maxNumber: number) {
  let key: Promise<string> | undefined;
  const hmacKey = () =>
    (key ??= getOrCreateSecret(db, 'access-code-pow-hmac-key', () =>
      randomBytes(32).toString('base64'),
    ).catch((err: unknown) => {
      key = undefined;
      throw err;
    }));

  return {
    async challenge(): Promise<AccessCodeChallenge> {
      return createChallenge({
        algorithm: 'SHA-256',
        hmacKey: await hmacKey(),
        maxnumber: maxNumber,
        expires: new Date(Date.now() + CHALLENGE_TTL_MS),
      });
    },

    /** True once for a correct, unexpired solution of one of our challenges; false for anything else. */
    async redeem(encoded: string): Promise<boolean> {
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
      } catch {
        return false;
      }
      if (!isPayload(payload)) return false;
      // The library would hash with any algorithm the client names; only ours is accepted.
      if (payload.algorithm !== 'SHA-256') return false;
      const expires = Number(extractParams(payload).expires) * 1000;
      // A challenge without an expiry is not one of ours (and could otherwise be stored for ever).
      if (!Number.isFinite(expires) || expires <= Date.now() || expires > Date.now() + CHALLENGE_TTL_MS) {
        return false;
      }
      if (!(await verifySolution(payload, await hmacKey(), true))) return false;
      const repo = guestRepository(db);
      const fresh = await repo.useProofOfWork(payload.signature, new Date(expires));
      if (Math.random() < 0.01) await repo.forgetUsedProofsOfWork();
      return fresh;
    },
  };
}
export type ProofOfWork = ReturnType<typeof proofOfWork>;

function isPayload(v: unknown): v is {
  algorithm: 'SHA-256';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
} {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    typeof p.algorithm === 'string' &&
    typeof p.challenge === 'string' &&
    p.challenge.length <= 200 &&
    typeof p.salt === 'string' &&
    p.salt.length <= 200 &&
    typeof p.signature === 'string' &&
    p.signature.length <= 200 &&
    Number.isSafeInteger(p.number) &&
    (p.number as number) >= 0
  );
}
