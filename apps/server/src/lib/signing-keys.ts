import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Queryable } from '../db/client.ts';
import { getOrCreateSecret } from './secrets.ts';

export interface SigningKeys {
  /** Private JWKs, for the embedded provider's `jwks` setting. */
  privateJwks: JWK[];
  /** The public half, for verifying access tokens without a network round trip. */
  publicJwks: { keys: JWK[] };
}

/** RS256 signing keys for the embedded provider, generated on first start and kept in the database. */
export async function loadSigningKeys(db: Queryable): Promise<SigningKeys> {
  const privateJwks = await getOrCreateSecret<JWK[]>(db, 'oidc-signing-keys', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const jwk = await exportJWK(privateKey);
    return [{ ...jwk, kid: randomUUID(), alg: 'RS256', use: 'sig' }];
  });
  const publicJwks = {
    keys: privateJwks.map(({ kty, n, e, kid, alg, use }) => ({ kty, n, e, kid, alg, use })),
  };
  return { privateJwks, publicJwks };
}
