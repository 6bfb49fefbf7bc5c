import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { unauthorized } from './errors.ts';

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'user'; userId: string; email: string | null; name: string | null }
  | { kind: 'guest'; memorialId: string; tokenId: string; guestName: string | null };

/** Turns a bearer token into a caller, or returns null when the token is not of its kind. */
export type TokenVerifier = (token: string) => Promise<Caller | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Resolved from the bearer token on first use; anonymous without one. */
    caller(): Promise<Caller>;
  }
}

/**
 * Verifies user access tokens (JWTs) against the issuer's JWKS: the embedded provider's keys
 * in-process, or any standard provider's (a Keycloak realm) through its discovery document.
 */
export function userTokenVerifier(opts: {
  config: Config;
  db: Queryable;
  localJwks?: { keys: object[] };
}): TokenVerifier {
  const { config, db } = opts;
  const issuer = config.OIDC_AUTHORITY;
  let keySet: JWTVerifyGetKey | undefined = opts.localJwks
    ? createLocalJWKSet(opts.localJwks as Parameters<typeof createLocalJWKSet>[0])
    : undefined;
  const getKeySet = async (): Promise<JWTVerifyGetKey> => {
    if (keySet) return keySet;
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`discovery failed: ${res.status}`);
    const { jwks_uri } = (await res.json()) as { jwks_uri: string };
    keySet = createRemoteJWKSet(new URL(jwks_uri));
    return keySet;
  };
  // Users seen with these claims already have a current row; saves a write per request.
  const known = new Map<string, string>();

  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await getKeySet(), {
        issuer,
        audience: config.OIDC_AUDIENCE,
        clockTolerance: 30,
        algorithms: ['RS256', 'ES256', 'PS256'],
      }));
    } catch {
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
    const fingerprint = `${email}\u0000${name}`;
    if (known.get(payload.sub) !== fingerprint) {
      await db.query(
        `INSERT INTO users (id, email, name) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET email = EXCLUDED.email, name = EXCLUDED.name, updated_at = now()`,
        [payload.sub, email, name],
      );
      if (known.size > 10_000) known.clear();
      known.set(payload.sub, fingerprint);
    }
    return { kind: 'user', userId: payload.sub, email, name };
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

/** The caller must be a signed-in user. */
export async function requireUser(req: FastifyRequest) {
  const caller = await req.caller();
  if (caller.kind !== 'user') throw unauthorized();
  return caller;
}
