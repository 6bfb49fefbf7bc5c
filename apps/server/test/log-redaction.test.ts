/**
 * The request log never holds a secret from an address: handover and invite codes, guestbook keys, the
 * `t=` tokens of mail links, link signatures, e-mail addresses. Every route and page is requested with
 * made-up secrets through the app's own logger configuration, writing to a stream this test reads.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { RouteOptions } from 'fastify';
import { routes as pages } from '@aandenken/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { REDACTED } from '../src/lib/log-redaction.ts';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { randomAddress } from './fixtures/content-matrix.ts';

/** Names of path and query parameters that hold a secret or an e-mail address wherever they occur. */
const SECRET_NAMES = new Set(['code', 'invitecode', 'token', 't', 'sig', 'email', 'state', 'login_hint']);

let t: TestContext;
let logged: App;
const lines: string[] = [];
/** Every route of the app as registered: pattern, methods, and its query parameters' names. */
const registered: { url: string; methods: string[]; query: string[] }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  logged = await buildApp({
    config: { ...t.config, LOG_LEVEL: 'info' },
    db: t.db,
    logStream: stream,
    onRoute: (route: RouteOptions) => {
      const shape = (route.schema?.querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
      registered.push({
        url: route.url,
        methods: [route.method].flat(),
        query: Object.keys(shape ?? {}),
      });
    },
  });
  // Failures whose text names an address: an error thrown with it, and a message that quotes it.
  logged.get('/test/fails', async (req) => {
    throw new Error(`fetch ${String(req.headers['x-link'])} failed`);
  });
  logged.get('/test/says', async (req) => {
    req.log.warn(`opened ${String(req.headers['x-link'])}`);
    return {};
  });
  await logged.ready();
});
afterAll(async () => {
  await logged?.close();
  await t?.close();
});

/** A secret of the length and alphabet of the real ones, recognisable in the log. */
const secret = () => `Geheim${randomBytes(12).toString('base64url')}`;

function expectClean(all: string, secrets: string[]) {
  for (const s of secrets) expect(all, s).not.toContain(s);
}

describe('the request log', () => {
  it('masks every secret path and query parameter of every API and identity route', async () => {
    const { token } = await issueUserToken(t, { email: 'logboek-eigenaar@example.nl' });
    const secrets: string[] = [];
    const expected: string[] = [];
    let swept = 0;
    for (const route of registered) {
      const params = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
      const secretParams = params.filter((p) => SECRET_NAMES.has(p.toLowerCase()));
      const secretQuery = route.query.filter((q) => SECRET_NAMES.has(q.toLowerCase()));
      // Fastify's HEAD twin of a GET is covered by the GET.
      const methods = route.methods.filter((m) => m !== 'HEAD');
      if (methods.length === 0 || (secretParams.length === 0 && secretQuery.length === 0)) continue;
      const values = new Map<string, string>();
      const made = (name: string) => {
        const value = secret();
        secrets.push(value);
        values.set(name, value);
        return value;
      };
      let path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_all, name: string) =>
        secretParams.includes(name) ? made(name) : (values.set(name, crypto.randomUUID()), values.get(name)!),
      );
      let shown = route.url.replace(/:([A-Za-z0-9_]+)/g, (_all, name: string) =>
        secretParams.includes(name) ? REDACTED : values.get(name)!,
      );
      if (secretQuery.length) {
        path += `?${secretQuery.map((q) => `${q}=${made(`?${q}`)}`).join('&')}&x=1`;
        shown += `?${secretQuery.map((q) => `${q}=${REDACTED}`).join('&')}&x=1`;
      }
      expected.push(shown);
      for (const method of methods) {
        // Anonymous and signed in: refusals are logged as well as answers.
        for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
          await logged.inject({
            method: method as 'GET',
            url: path,
            headers,
            remoteAddress: randomAddress(),
          });
        }
      }
      swept++;
    }
    // Handover and its acceptance, invite code and acceptance, guestbook read and signing, unsubscribe,
    // five signed files, the team's member address.
    expect(swept).toBeGreaterThanOrEqual(14);
    const all = lines.join('');
    expectClean(all, secrets);
    // The requests themselves are still in the log, with a marker where the secret was.
    for (const shown of expected) expect(all, shown).toContain(shown);
  });

  it('masks the identity provider’s tokens, codes, states and hints', async () => {
    const base = new URL(t.config.OIDC_AUTHORITY).pathname.replace(/\/+$/, '');
    const s = Array.from({ length: 10 }, secret);
    const urls: [string, string][] = [
      [
        `${base}/login-actions/reset-password?token=${s[0]}`,
        `${base}/login-actions/reset-password?token=${REDACTED}`,
      ],
      [
        `${base}/login-actions/verify-email?token=${s[1]}`,
        `${base}/login-actions/verify-email?token=${REDACTED}`,
      ],
      [
        `${base}/interaction/${crypto.randomUUID()}/google/done?state=${s[2]}`,
        `/google/done?state=${REDACTED}`,
      ],
      [
        `${base}/broker/google/endpoint?state=${s[3]}&code=${s[4]}&scope=email`,
        `${base}/broker/google/endpoint?state=${REDACTED}&code=${REDACTED}&scope=email`,
      ],
      [
        `${base}/protocol/openid-connect/auth?client_id=web&login_hint=${s[5]}%40example.nl&state=${s[6]}&nonce=${s[7]}`,
        `${base}/protocol/openid-connect/auth?client_id=web&login_hint=${REDACTED}&state=${REDACTED}&nonce=${REDACTED}`,
      ],
      [
        `${base}/protocol/openid-connect/logout?id_token_hint=${s[8]}&state=${s[9]}`,
        `${base}/protocol/openid-connect/logout?id_token_hint=${REDACTED}&state=${REDACTED}`,
      ],
    ];
    for (const [url] of urls) await logged.inject({ url, remoteAddress: randomAddress() });
    const all = lines.join('');
    expectClean(all, s);
    for (const [, shown] of urls) expect(all, shown).toContain(shown);
  });

  it('masks the secrets of the pages: the guestbook link, handover and invitation, mail links, sign-in', async () => {
    const s = Array.from({ length: 12 }, secret);
    const urls: [string, string][] = [
      [pages.guestbook(s[0]!), pages.guestbook(REDACTED)],
      [`${pages.guestbook(s[1]!)}/`, `${pages.guestbook(REDACTED)}/`],
      [pages.handover(s[2]!), pages.handover(REDACTED)],
      [pages.invite(s[3]!), pages.invite(REDACTED)],
      [`${pages.mailConfirm}?t=${s[4]}`, `${pages.mailConfirm}?t=${REDACTED}`],
      [`${pages.mailUnsubscribe}?t=${s[5]}&soort=x`, `${pages.mailUnsubscribe}?t=${REDACTED}&soort=x`],
      [
        `${pages.authCallback}?code=${s[6]}&state=${s[7]}`,
        `${pages.authCallback}?code=${REDACTED}&state=${REDACTED}`,
      ],
      [
        `/silent-callback.html?state=${s[8]}&code=${s[9]}`,
        `/silent-callback.html?state=${REDACTED}&code=${REDACTED}`,
      ],
      [
        `${pages.partnerPortal}?login_hint=${s[10]}%40example.nl`,
        `${pages.partnerPortal}?login_hint=${REDACTED}`,
      ],
      [`${pages.logoutCallback}?state=${s[11]}`, `${pages.logoutCallback}?state=${REDACTED}`],
    ];
    for (const [url] of urls) await logged.inject({ url, remoteAddress: randomAddress() });
    const all = lines.join('');
    expectClean(all, s);
    for (const [, shown] of urls) expect(all, shown).toContain(shown);
  });

  it('masks a secret written another way: encoded, in other case, after a semicolon, with a trailing slash', async () => {
    const s = Array.from({ length: 4 }, secret);
    await logged.inject({ url: `/core/guest%62ook/${s[0]}`, remoteAddress: randomAddress() });
    await logged.inject({
      url: `/core/GUESTBOOK/${s[1]}/entries/`,
      method: 'POST',
      remoteAddress: randomAddress(),
    });
    await logged.inject({
      url: `/core/mail/unsubscribe;x?T=${s[2]}`,
      method: 'POST',
      remoteAddress: randomAddress(),
    });
    await logged.inject({ url: `/core//handover//${s[3]}`, remoteAddress: randomAddress() });
    expectClean(lines.join(''), s);
  });

  it('masks addresses in error logs, message texts and the answers to a caller over the rate limit', async () => {
    const s = [secret(), secret(), secret()];
    const failed = await logged.inject({
      url: '/test/fails',
      headers: { 'x-link': `http://localhost:8080/g/${s[0]}` },
    });
    expect(failed.statusCode).toBe(500);
    await logged.inject({
      url: '/test/says',
      headers: { 'x-link': `/core/mail/unsubscribe?t=${s[1]}` },
    });
    // The handover preview allows 30 a minute per address; the 31st is refused with 429.
    const address = randomAddress();
    let last = 0;
    for (let i = 0; i < 31; i++) {
      last = (await logged.inject({ url: `/core/handover/${s[2]}`, remoteAddress: address })).statusCode;
    }
    expect(last).toBe(429);
    const all = lines.join('');
    expectClean(all, s);
    expect(all).toContain(`failed`);
    expect(all).toContain(`http://localhost:8080/g/${REDACTED}`);
    expect(all).toContain(`opened /core/mail/unsubscribe?t=${REDACTED}`);
    // Every log line is still JSON after masking.
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
  });
});
