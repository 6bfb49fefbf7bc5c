import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, decodeProtectedHeader } from 'jose';
import { GUEST_TOKEN_TTL_HOURS } from '@aandenken/contract';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import type { TokenVerifier } from '../../lib/auth.ts';
import { getOrCreateSecret } from '../../lib/secrets.ts';
import { isUuid } from '../../lib/ids.ts';
import { guestRepository } from './repository.ts';

const AUDIENCE = 'aandenken-guest';
const TYP = 'guest+jwt';

/**
 * Guest tokens: HS256 JWTs with a stored secret, scoped to one memorial, carrying the access-code
 * version they were issued under. Regenerating the code bumps the version, which revokes them all; a
 * token issued for a one-time link ends with that link (its invite revoked, its member removed: the
 * link's row carries the token's id, `guest_token_ended_at`). Making the page invite-only ends the tokens
 * the code gave; those from a link stay.
 */
export function guestTokens({ db, config }: { db: Queryable; config: Pick<Config, 'API_URL'> }) {
  const issuer = `${config.API_URL}/core/guest`;
  let key: Promise<Uint8Array> | undefined;
  const loadKey = () =>
    (key ??= getOrCreateSecret(db, 'guest-token-hs256-key', () => randomBytes(32).toString('base64'))
      .then((k) => new Uint8Array(Buffer.from(k, 'base64')))
      .catch((err: unknown) => {
        key = undefined;
        throw err;
      }));

  return {
    /** Load the key before a transaction (PGlite has one connection). */
    ready: () => loadKey().then(() => undefined),

    async issue(opts: {
      memorialId: string;
      accessCodeVersion: number;
      guestName?: string | null;
      /** Chosen by the caller when it records the id first (a one-time link keeps it). */
      tokenId?: string;
    }) {
      const tokenId = opts.tokenId ?? randomUUID();
      const expiresAt = new Date(Date.now() + GUEST_TOKEN_TTL_HOURS * 3600_000);
      const token = await new SignJWT({
        mid: opts.memorialId,
        ver: opts.accessCodeVersion,
        ...(opts.guestName ? { name: opts.guestName } : {}),
      })
        .setProtectedHeader({ alg: 'HS256', typ: TYP })
        .setIssuer(issuer)
        .setAudience(AUDIENCE)
        .setSubject(`guest:${tokenId}`)
        .setJti(tokenId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(await loadKey());
      return { token, tokenId, expiresAt: new Date(Math.floor(expiresAt.getTime() / 1000) * 1000) };
    },

    /**
     * For authPlugin, after the user verifier: a guest caller only while the memorial is active, the
     * version current and the link it came from (if any) not ended. One statement, as before the link
     * check: the ended links are a partial index of their own.
     */
    verifier(): TokenVerifier {
      return async (token) => {
        try {
          if (decodeProtectedHeader(token).typ !== TYP) return null;
        } catch {
          return null;
        }
        let payload;
        try {
          ({ payload } = await jwtVerify(token, await loadKey(), {
            issuer,
            audience: AUDIENCE,
            algorithms: ['HS256'],
            typ: TYP,
            clockTolerance: 30,
          }));
        } catch {
          return null;
        }
        const { mid, ver, jti, name } = payload as {
          mid?: unknown;
          ver?: unknown;
          jti?: unknown;
          name?: unknown;
        };
        if (typeof mid !== 'string' || typeof ver !== 'number' || typeof jti !== 'string') return null;
        if (!isUuid(mid) || !isUuid(jti)) return null;
        // On an invite-only page only a token from a link counts: one the code gave ends with the switch.
        const row = await guestRepository(db).tokenStanding(mid, jti);
        if (!row || row.access_code_version !== ver || row.status !== 'active' || row.ended) return null;
        return {
          kind: 'guest',
          memorialId: mid,
          tokenId: jti,
          guestName: typeof name === 'string' ? name : null,
          ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
        };
      };
    },
  };
}
export type GuestTokens = ReturnType<typeof guestTokens>;

/** The verifier app.ts gives authPlugin after the user verifier. */
export const guestTokenVerifier = (deps: { db: Queryable; config: Pick<Config, 'API_URL'> }): TokenVerifier =>
  guestTokens(deps).verifier();
