import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { errorCodes } from '@aandenken/contract';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, unauthorized } from './errors.ts';

export type Caller =
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      userId: string;
      email: string | null;
      name: string | null;
      /** The access token's `iat` (seconds), when it has one. */
      issuedAt?: number;
      /** The access token's `exp` (seconds), when it has one: a live stream ends then. */
      expiresAt?: number;
    }
  | {
      kind: 'guest';
      memorialId: string;
      tokenId: string;
      guestName: string | null;
      /** The guest token's `exp` (seconds): a live stream ends then. */
      expiresAt?: number;
    };

/** Turns a bearer token into a caller, or returns null when the token is not of its kind. */
export type TokenVerifier = (token: string) => Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved from the bearer token on first use; anonymous without one. */
    caller(): Promise<Caller>;
    /**
     * The same bearer token verified again now, not the caller resolved earlier: whether it still holds
     * (a live stream asks while it runs).
     */
    callerAgain(): Promise<Caller>;
  }
  interface FastifyContextConfig {
    /**
     * The route answers anonymous callers too (a public memorial, the search, the contact form). Every
     * other route under /core needs a caller: `requireCaller` answers 401 before the body is read.
     */
    allowAnonymous?: boolean;
  }
}

/**
 * The users whose current row a verifier has seen (so it does not write it on every request). Account
 * deletion forgets the deleted user, so their next request reaches the database and is refused.
 */
export interface SeenUsers {
  known: Map<string, string>;
  forget(userId: string): void;
}
export function seenUsers(): SeenUsers {
  const known = new Map<string, string>();
  return { known, forget: (userId) => void known.delete(userId) };
}

/** Seconds a token may be past its expiry (or before its issue time) and still count: clocks differ. */
export const CLOCK_TOLERANCE_SECONDS = 30;
const DISCOVERY_TIMEOUT_MS = 5000;

/** The issuer's discovery document or keys could not be fetched: says nothing about the token. */
class IdentityProviderUnreachable extends Error {}

// Failures that are the token's own (an unknown key id, an algorithm we do not accept), not the provider's.
const tokenKeyErrors = [
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
];

/**
 * Verifies user access tokens (JWTs) against the issuer's JWKS: the embedded provider's keys
 * in-process, or any standard provider's (a Keycloak realm) through its discovery document.
 * When an external provider cannot be reached the request fails with 503, not 401: the token may be
 * fine, and a 401 would send the client into a renewal that cannot succeed either.
 */
export function userTokenVerifier(opts: {
  config: Config;
  db: Queryable;
  localJwks?: { keys: object[] };
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** Shared with account deletion, which forgets a deleted user at once. */
  seen?: SeenUsers;
}): TokenVerifier {
  const { config, db, log } = opts;
  const issuer = config.OIDC_AUTHORITY;
  let remoteKeys: JWTVerifyGetKey | undefined;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    if (remoteKeys) return remoteKeys;
    const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const { jwks_uri } = (await res.json()) as { jwks_uri?: unknown };
    if (typeof jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
    remoteKeys = createRemoteJWKSet(new URL(jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS });
    return remoteKeys;
  };
  // Resolved only once the token parses and its algorithm is acceptable, so garbage and guest tokens
  // never wait on (or fail with) the provider.
  const keySet: JWTVerifyGetKey = opts.localJwks
    ? createLocalJWKSet(opts.localJwks as Parameters<typeof createLocalJWKSet>[0])
    : async (header, token) => {
        let keys: JWTVerifyGetKey;
        try {
          keys = await discover();
        } catch (cause) {
          throw new IdentityProviderUnreachable(`discovery at ${issuer} failed`, { cause });
        }
        try {
          return await keys(header, token);
        } catch (err) {
          if (tokenKeyErrors.some((type) => err instanceof type)) throw err;
          throw new IdentityProviderUnreachable(`keys of ${issuer} could not be fetched`, { cause: err });
        }
      };
  // Users seen with these claims already have a current row; saves a write per request.
  const known = opts.seen?.known ?? new Map<string, string>();

  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keySet, {
        issuer,
        audience: config.OIDC_AUDIENCE,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        algorithms: ['RS256', 'ES256', 'PS256'],
      }));
    } catch (err) {
      if (err instanceof IdentityProviderUnreachable) {
        log?.error({ err }, 'identity provider unreachable: access token not verified');
        throw new AppError(
          503,
          errorCodes.identityUnavailable,
          'Inloggen is op dit moment niet beschikbaar. Probeer het over een paar minuten opnieuw.',
        );
      }
      return null;
    }
    if (!payload.sub) return null;
    const email = typeof payload.email === 'string' ? payload.email : null;
    const name =
      typeof payload.name === 'string'
        ? payload.name
        : typeof payload.preferred_username === 'string'
          ? payload.preferred_username
          : null;
    // The hour is part of it, so the row (and `last_seen_at`, which successors count on) is written again
    // at most once an hour per process.
    const fingerprint = `${email}\u0000${name}\u0000${Math.floor(Date.now() / 3_600_000)}`;
    if (known.get(payload.sub) !== fingerprint) {
      // A deleted user's row is never filled in again: their token is refused (the same 401 as an expired one).
      const { rowCount } = await db.query(
        `INSERT INTO users (id, email, name) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, name = EXCLUDED.name, updated_at = now(),
                                        last_seen_at = now()
           WHERE users.deleted_at IS NULL`,
        [payload.sub, email, name],
      );
      if (rowCount === 0) {
        known.delete(payload.sub);
        return null;
      }
      if (known.size > 10_000) known.clear();
      known.set(payload.sub, fingerprint);
    }
    return {
      kind: 'user',
      userId: payload.sub,
      email,
      name,
      ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
      ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
    };
  };
}

/**
 * Adds `req.caller()`. Verifiers are tried in order (user tokens first, then guest tokens); a bearer
 * token that none accepts is a 401, so the client knows to renew it.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: { verifiers: TokenVerifier[] }) => {
  app.decorateRequest('caller', function (this: FastifyRequest) {
    const self = this as FastifyRequest & { _caller?: Promise<Caller> };
    self._caller ??= resolve(self);
    return self._caller;
  });
  app.decorateRequest('callerAgain', function (this: FastifyRequest) {
    return resolve(this);
  });
  async function resolve(req: FastifyRequest): Promise<Caller> {
    const header = req.headers.authorization;
    if (!header) return { kind: 'anonymous' };
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized('Ongeldige autorisatie.');
    for (const verify of opts.verifiers) {
      const caller = await verify(match[1]!);
      if (caller) return caller;
    }
    throw unauthorized('Je sessie is verlopen. Log opnieuw in.');
  }
});

/**
 * An onRequest hook: unless the route allows anonymous callers, the bearer token is checked from the
 * headers before any byte of the body is read or validated, so an anonymous or expired caller gets 401
 * whatever it sends (no 400 for a malformed body that reveals the call's shape, no upload written to
 * disk first). Addresses no route matches keep their 404/405.
 */
export async function requireCaller(req: FastifyRequest) {
  if (req.is404 || req.routeOptions.config.allowAnonymous) return;
  const caller = await req.caller();
  if (caller.kind === 'anonymous') throw unauthorized();
}

/** The caller must be a signed-in user. */
export async function requireUser(req: FastifyRequest) {
  const caller = await req.caller();
  if (caller.kind !== 'user') throw unauthorized();
  return caller;
}
