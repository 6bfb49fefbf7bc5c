import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { requireUser } from '../src/lib/auth.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, (app) => app.get('/whoami-test', async (req) => requireUser(req)));
});
afterAll(async () => t?.close());

describe('bearer authentication', () => {
  it('accepts a token signed by the embedded keys with the right issuer and audience', async () => {
    const { token, userId } = await issueUserToken(t, { email: 'Els@Example.nl', name: 'Els' });
    const res = await t.app.inject({ url: '/whoami-test', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'user', userId, email: 'Els@Example.nl', name: 'Els' });
    const { rows } = await t.db.query('SELECT id, name FROM users WHERE id = $1', [userId]);
    expect(rows).toEqual([{ id: userId, name: 'Els' }]);
  });

  it('refuses no token, a foreign key, a wrong audience and garbage with 401', async () => {
    expect((await t.app.inject({ url: '/whoami-test' })).statusCode).toBe(401);
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(t.config.OIDC_AUTHORITY)
      .setAudience(t.config.OIDC_AUDIENCE)
      .setSubject('x')
      .setExpirationTime('5m')
      .sign(privateKey);
    for (const auth of [`Bearer ${foreign}`, 'Bearer garbage', 'Basic abc']) {
      const res = await t.app.inject({ url: '/whoami-test', headers: { authorization: auth } });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });
});
