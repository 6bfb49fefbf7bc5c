import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWTPayload } from 'jose';
import { createTestApp, createTestDb, issueUserToken, type TestContext } from './helpers.ts';
import { CLOCK_TOLERANCE_SECONDS, requireUser } from '../src/lib/auth.ts';
import { loadSigningKeys } from '../src/lib/signing-keys.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, (app) => app.get('/whoami-test', async (req) => requireUser(req)));
});
afterAll(async () => t?.close());

const now = () => Math.floor(Date.now() / 1000);

/** A token signed with the embedded provider's real signing key; claims override the good defaults. */
async function providerSigned(claims: JWTPayload = {}) {
  const { privateJwks } = await loadSigningKeys(t.db);
  const jwk = privateJwks[0]!;
  return new SignJWT({
    iss: t.config.OIDC_AUTHORITY,
    aud: t.config.OIDC_AUDIENCE,
    sub: randomUUID(),
    iat: now() - 600,
    exp: now() + 300,
    email: 'els@example.nl',
    name: 'Els',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
    .sign(await importJWK(jwk, 'RS256'));
}

const whoami = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/whoami-test', headers: { authorization: `Bearer ${token}` } });

async function expectRefused(token: string) {
  const res = await whoami(t.app, token);
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Je sessie is verlopen. Log opnieuw in.' });
}

describe('bearer authentication', () => {
  it('accepts a token signed by the embedded keys with the right issuer and audience', async () => {
    const { token, userId } = await issueUserToken(t, { email: 'Els@Example.nl', name: 'Els' });
    const res = await whoami(t.app, token);
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

  it('refuses a token from the real provider key with a wrong audience or issuer', async () => {
    // The good token first, so a refusal below is the claim's doing and not the signing.
    expect((await whoami(t.app, await providerSigned())).statusCode).toBe(200);
    await expectRefused(await providerSigned({ aud: 'een-andere-api' }));
    await expectRefused(await providerSigned({ aud: 'aandenken-guest' }));
    await expectRefused(await providerSigned({ iss: 'http://localhost:8080/realms/ander' }));
    await expectRefused(await providerSigned({ iss: 'https://evil.example/realms/aandenken' }));
  });

  it('refuses an expired token, allowing a bounded clock skew', async () => {
    expect(CLOCK_TOLERANCE_SECONDS).toBe(30);
    const justExpired = await providerSigned({ exp: now() - 10 });
    expect((await whoami(t.app, justExpired)).statusCode).toBe(200);
    await expectRefused(await providerSigned({ exp: now() - CLOCK_TOLERANCE_SECONDS - 15 }));
    await expectRefused(await providerSigned({ exp: now() - 3600 }));
    // Issued in the (near) future by a clock that runs ahead: the same tolerance.
    expect((await whoami(t.app, await providerSigned({ iat: now() + 10, nbf: now() + 10 }))).statusCode).toBe(
      200,
    );
    await expectRefused(await providerSigned({ nbf: now() + CLOCK_TOLERANCE_SECONDS + 15 }));
  });
});

describe('an external identity provider that cannot be reached', () => {
  /** A minimal standard provider on loopback: discovery and JWKS for one RS256 key. */
  async function standIn(port: number, keys: { publicJwk: object }) {
    const server = http.createServer((req, res) => {
      const issuer = `http://127.0.0.1:${port}/realms/extern`;
      res.setHeader('content-type', 'application/json');
      if (req.url === '/realms/extern/.well-known/openid-configuration') {
        res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/protocol/openid-connect/certs` }));
      } else if (req.url === '/realms/extern/protocol/openid-connect/certs') {
        res.end(JSON.stringify({ keys: [keys.publicJwk] }));
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it('answers 503 IDENTITY_UNAVAILABLE and logs why, then verifies again once the provider is back', async () => {
    // A port that was free a moment ago and is closed now.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const issuer = `http://127.0.0.1:${port}/realms/extern`;

    const logLines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    const db = await createTestDb();
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      PUBLIC_URL: 'http://localhost:8080',
      OIDC_AUTHORITY: issuer,
      SEED_EXAMPLES: 'false',
    });
    const app = await buildApp({ config, db, logger: { level: 'error', stream } });
    app.get('/whoami-test', async (req) => requireUser(req));
    await app.ready();
    try {
      const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
      const kid = randomUUID();
      const token = await new SignJWT({ email: 'ext@example.nl', name: 'Extern' })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuer)
        .setAudience(config.OIDC_AUDIENCE)
        .setSubject(randomUUID())
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);

      const down = await whoami(app, token);
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({
        code: 'IDENTITY_UNAVAILABLE',
        message: 'Inloggen is op dit moment niet beschikbaar. Probeer het over een paar minuten opnieuw.',
      });
      const logged = logLines.find(
        (l) => l.msg === 'identity provider unreachable: access token not verified',
      );
      expect(logged).toBeDefined();
      expect(JSON.stringify(logged)).toContain(`discovery at ${issuer} failed`);
      expect(JSON.stringify(logged)).toContain('ECONNREFUSED');

      // Tokens the provider's keys have no say in are still judged without it.
      for (const auth of [
        'Bearer garbage',
        `Bearer ${await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32))}`,
      ]) {
        const res = await app.inject({ url: '/whoami-test', headers: { authorization: auth } });
        expect(res.statusCode).toBe(401);
      }

      // The failure is not remembered: with the provider back, the same token is accepted.
      const provider = await standIn(port, {
        publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
      });
      try {
        const up = await whoami(app, token);
        expect(up.statusCode).toBe(200);
        expect(up.json()).toMatchObject({ kind: 'user', email: 'ext@example.nl', name: 'Extern' });
      } finally {
        await provider.close();
      }
    } finally {
      await app.close();
      await db.close();
    }
  });
});
