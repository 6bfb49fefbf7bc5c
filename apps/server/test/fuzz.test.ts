/**
 * THE FUZZ SUITE: malformed requests to every call of the API, made by fast-check from the contract's
 * schemas (as /core/openapi.json describes them), sent as an anonymous visitor, a guest (a guest token
 * from the access code), a member (the owner) and an outsider (signed in, no rights). For every request:
 * no 5xx, no stack trace or file path in the answer, every refusal `{ code, message }` in Dutch, 401 for an
 * anonymous caller of a members-only call, a refusal (4xx) for every request that is malformed; and after
 * every call's requests the database holds exactly what it held before. Every other route (pages' forms,
 * the identity provider, Swagger UI, the health check, addresses no route has) gets the same nasty values
 * without a schema: no 5xx, no trace, nothing changed. docs/security.md ("Fuzz suite") says more.
 *
 * FUZZ_RUNS requests per call and caller (default 12: CI), FUZZ_SEED the seed (default 13: CI).
 * `npm run fuzz` (scripts/fuzz.mjs) runs the full count with a random seed it prints; a failure names the
 * seed and fast-check's path, and `FUZZ_SEED=<seed> npm run fuzz` repeats it.
 */
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  auth,
  createUsers,
  createMemorial,
  createWorld,
  guestTokenFor,
  type World,
} from './memorial-fixtures.ts';
import { candle, galleryPhoto, memory, memoryPhoto } from './fixtures/content-matrix.ts';
import {
  forgedAuthorization,
  plainRequestArb,
  requestArb,
  type PlainRoute,
  type FuzzRequest,
  type Operation,
  type Pool,
  type Schema,
} from './fixtures/fuzz-requests.ts';
import { snapshotDb, snapshotDiff } from './fixtures/db-snapshot.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 12);
const seed = Number(process.env.FUZZ_SEED ?? 13);

const callers = ['anonymous', 'guest', 'member', 'outsider'] as const;
type Caller = (typeof callers)[number];

/**
 * Left out of the database comparison, each because a refused request may rightly change it:
 * - `access_code_attempts`: every well-formed access code tried at POST /core/guest/token is counted,
 *   right or wrong, before it is checked (that is the defence against guessing; finding 10).
 * - `memories.card`, `memories.card_key`: the memory wall's ready-made cards, a cache that reads write
 *   (migration 093); what a card shows is compared through the memories' other columns.
 * - `users.last_seen_at`, `users.updated_at`: any signed-in request refreshes them once an hour
 *   (lib/auth.ts), so a run that crosses the hour sees them change.
 */
const volatile = [
  'access_code_attempts',
  'memories.card',
  'memories.card_key',
  'users.last_seen_at',
  'users.updated_at',
];
/**
 * Rows left out for the same reason:
 * - the identity provider's sessions and interactions without an account: any visitor of its endpoints
 *   gets one (the server side of a cookie, as before signing in), and they expire (`sweepExpiredModels`).
 *   Those of an account (signed in) are compared.
 */
const volatileRows = {
  oidc_models: `model IN ('Session', 'Interaction') AND NOT (payload ? 'accountId' OR payload ? 'account')`,
};
const dump = () => snapshotDb(t.db, volatile, volatileRows);

/**
 * /core routes that take no input to fuzz, with the reason. (Swagger UI's pages below /core/docs have no
 * schema: they are fuzzed with the routes outside the API.)
 */
const notFuzzed: { route: RegExp; reason: string }[] = [
  { route: /^GET \/core\/openapi\.json$/, reason: 'the API description: no parameters, no body' },
  { route: /^HEAD /, reason: 'HEAD is answered by the GET route, which is fuzzed' },
];

/** Reads: they may also get well-formed requests with nasty values. Everything else must be refused. */
const isRead = (op: Operation) => op.method === 'GET' || op.path.includes('/query');

/** Traces of a crash: stack frames, file paths, error class names. */
const crashTraces = [
  /\n\s+at\s/,
  /\bat [^\s]+ \([^)]*:\d+:\d+\)/,
  /(?:\/work\/|\/home\/|\/tmp\/|node:internal|node_modules|file:\/\/)/,
  /\b(?:Type|Range|Reference|Syntax|URI)?Error: /,
  /\bFST_[A-Z_]+\b/,
  /\b(?:SQLSTATE|syntax error at|invalid input syntax|violates .* constraint)\b/,
];

/** Words of English messages (Fastify's, zod's, busboy's) that no Dutch message has. */
const englishWords =
  /\b(the|is required|must|should|expected|received|invalid|unexpected|error|not found|too (big|small|large)|boundary|unsupported)\b/i;

const registered = new Map<string, { allowAnonymous: boolean }>();
/** Routes outside /core as registered (':param' and '*' style), with their methods. */
const plainRegistered = new Map<string, Set<string>>();
// Built while the tests are collected: the calls to fuzz are the app's own (one test each).
const t: TestContext = await createTestApp({}, undefined, {
  onRoute: (route: RouteOptions) => {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const allowAnonymous = !!(route.config as { allowAnonymous?: boolean } | undefined)?.allowAnonymous;
    for (const method of [route.method].flat()) registered.set(`${method} ${path}`, { allowAnonymous });
    if (!route.url.startsWith('/core') || route.url.startsWith('/core/docs')) {
      const methods = plainRegistered.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) methods.add(method);
      plainRegistered.set(route.url, methods);
    }
  },
});
const operations = openApiOperations(t.app.swagger() as unknown as OpenApi);
/**
 * Everything outside the API, fuzzed without a schema: every route (HEAD-only ones are their GET's), and
 * '/*' for the addresses no route has (the pages' not-found handler).
 */
const plainRoutes: PlainRoute[] = [
  ...[...plainRegistered]
    .filter(([, methods]) => [...methods].some((m) => m !== 'HEAD'))
    .map(([url, methods]) => ({ url, methods: [...methods] })),
  { url: '/*', methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] },
];
let w: World;
let pool: Pool;
let tokens: Record<Caller, string | null>;
/** The database before the first request, and as the previous route left it (each route is judged alone). */
let original: Record<string, string[]>;
let baseline: Record<string, string[]>;
/**
 * Runs one route's requests, then compares the database with how the previous route left it and takes the
 * result as the next route's start, also when a request failed: each route is judged on its own changes.
 */
async function judgedAlone(route: string, send: () => Promise<void>) {
  let failure: unknown = null;
  await send().catch((err: unknown) => {
    failure = err;
  });
  const now = await dump();
  const diff = snapshotDiff(baseline, now);
  baseline = now;
  if (failure) throw failure;
  expect(diff, `${route} changed the database (FUZZ_SEED=${seed})`).toBeNull();
}
const sent = new Map<string, number>();
let address = 0;

beforeAll(async () => {
  const users = await createUsers(t);
  const o = await createMemorial(t, users.otherOwner, { status: 'active' });
  w = await createWorld(t, users, { memorialId: o.id, guestToken: await guestTokenFor(t, o.id) });
  const ids = [
    w.memorialId,
    w.otherMemorialId,
    ...Object.values(w.memberIds),
    w.invite.id,
    await memory(t, w),
    await memory(t, w, { concept: true }),
    await galleryPhoto(t, w),
    await memoryPhoto(t, w),
    await candle(t, w),
    // A service of the funeral day, open for RSVPs (docs/funeral-day.md).
    (
      await t.db.query<{ id: string }>(
        `INSERT INTO memorial_services (memorial_id, kind, service_date, starts_at, place_name, address, rsvp_open)
         VALUES ($1, 'uitvaart', '2099-06-01', '14:00', 'Aula', 'Kerkstraat 1, Utrecht', true) RETURNING id`,
        [w.memorialId],
      )
    ).rows[0]!.id,
  ];
  pool = { ids, codes: [w.invite.code, w.linkToken], accessCodes: [w.accessCode] };

  // The guest's token comes from the access code, as a visitor gets it.
  const guest = await t.app.inject({
    method: 'POST',
    url: '/core/guest/token',
    payload: { accessCode: w.accessCode },
  });
  expect(guest.statusCode, guest.body).toBe(200);
  tokens = {
    anonymous: null,
    guest: guest.json<{ token: string }>().token,
    member: w.tokens.owner,
    outsider: w.tokens.stranger,
  };
  // First use of a user's token records the account's name: done here, before the database is dumped.
  for (const c of callers)
    await t.app.inject({
      method: 'POST',
      url: '/core/memorial/query/partof',
      headers: auth(tokens[c]),
      payload: {},
    });
  // The photos' variants are made in the background: done before the database is dumped.
  for (let i = 0; i < 600; i++) {
    const { rows } = await t.db.query<{ n: number }>(
      // Work due now; a job planned for later (the daily look for silent owners) is not under way.
      `SELECT count(*)::int AS n FROM jobs WHERE status = 'running' OR (status = 'queued' AND run_at <= now())`,
    );
    if (rows[0]!.n === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  original = baseline = await dump();
  // The dump sees the test's own tables (its schema on a PostgreSQL server), with the world in them.
  expect(original.memorials?.length).toBeGreaterThanOrEqual(2);
  expect(original.memories?.length).toBeGreaterThanOrEqual(2);
}, 120_000);
afterAll(async () => t.close());

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema: Schema }[];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
}

function openApiOperations(doc: OpenApi): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.startsWith('/core/')) continue;
    for (const [method, op] of Object.entries(methods)) {
      const params = (where: string) =>
        Object.fromEntries(
          (op.parameters ?? []).filter((p) => p.in === where).map((p) => [p.name, p.schema]),
        );
      const [contentType, body] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params('path'),
        query: params('query'),
        headers: params('header'),
        body: contentType && body ? { contentType, schema: body.schema } : undefined,
      });
    }
  }
  return ops;
}

/** A stable number per call and caller, so each gets its own sequence from the one seed. */
function seedFor(label: string) {
  let h = seed | 0;
  for (const ch of label) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

function describeRequest(req: FuzzRequest) {
  const payload =
    req.payload === undefined
      ? ''
      : typeof req.payload === 'string'
        ? req.payload.slice(0, 300)
        : `<${req.payload.length} bytes> ${req.payload.subarray(0, 300).toString('latin1')}`;
  return `${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 300)} ${JSON.stringify(payload)} (${req.breaks.join(', ') || 'well-formed'})`;
}

async function check(op: Operation, caller: Caller, req: FuzzRequest, forged: string | null) {
  const call = `${op.method} ${op.path}`;
  const headers = {
    ...req.headers,
    ...(caller === 'anonymous' ? (forged ? { authorization: forged } : {}) : auth(tokens[caller])),
  };
  address++;
  const res = await t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
    remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
  });
  sent.set(call, (sent.get(call) ?? 0) + 1);
  const label = `${caller}${forged ? ` (${forged.slice(0, 40)})` : ''}: ${describeRequest(req)} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  expect(res.statusCode, label).toBeLessThan(500);
  const sentText = `${req.url}${JSON.stringify(req.headers)}${String(req.payload ?? '')}`;
  for (const trace of crashTraces) {
    const m = trace.exec(res.body);
    // Echoed input is not a trace (a refused value may be named back).
    if (m && !sentText.includes(m[0])) expect.fail(`a crash trace (${trace}) in the answer: ${label}`);
  }
  if (res.statusCode >= 400) {
    let body: unknown;
    try {
      body = res.json();
    } catch {
      expect.fail(`a refusal that is not JSON: ${label}`);
    }
    expect(body, label).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    // In Dutch: none of the framework's or the validator's English words.
    expect((body as { message: string }).message, label).not.toMatch(englishWords);
  }
  // Authentication comes before everything a call does, but not before the router: an address it cannot
  // decode, or with a segment over its length limit, matches no call at all (400 or 414, in Dutch).
  const unroutable =
    res.statusCode === 414 || (res.statusCode === 400 && res.json().message === 'Dit adres is ongeldig.');
  if (caller === 'anonymous' && !registered.get(call)?.allowAnonymous && !unroutable)
    expect(res.statusCode, `an anonymous caller of a members-only call: ${label}`).toBe(401);
  if (req.breaks.length > 0)
    expect(res.statusCode, `a malformed request was accepted: ${label}`).toBeGreaterThanOrEqual(400);
}

/** Pages and the identity provider answer in HTML or OAuth's JSON: no 5xx and no trace is what holds. */
async function checkPlain(route: PlainRoute, caller: Caller, req: FuzzRequest) {
  address++;
  const res = await t.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: { ...req.headers, ...auth(tokens[caller]) },
    ...(req.payload === undefined ? {} : { payload: req.payload }),
    remoteAddress: `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`,
  });
  sent.set(route.url, (sent.get(route.url) ?? 0) + 1);
  const label = `${caller}: ${describeRequest(req)} → ${res.statusCode} ${res.body.slice(0, 500)}`;
  // Without a web build (unit tests run before it) a page is 503 with this text; that is no crash.
  const notBuilt = res.statusCode === 503 && res.body.startsWith('De website is nog niet gebouwd.');
  if (!notBuilt) expect(res.statusCode, label).toBeLessThan(500);
  const sentText = `${req.url}${JSON.stringify(req.headers)}${String(req.payload ?? '')}`;
  for (const trace of crashTraces) {
    const m = trace.exec(res.body);
    if (m && !sentText.includes(m[0])) expect.fail(`a crash trace (${trace}) in the answer: ${label}`);
  }
}

describe(`fuzz suite (${runs} requests per call and caller, FUZZ_SEED=${seed})`, () => {
  it('fuzzes every /core route the app registers, except the listed ones without input', () => {
    const fuzzed = new Set(operations.map((o) => `${o.method} ${o.path}`));
    const core = [...registered.keys()].filter((r) => r.split(' ')[1]!.startsWith('/core'));
    expect(core.length, 'routes were collected').toBeGreaterThan(60);
    expect(
      core.filter(
        (r) =>
          !fuzzed.has(r) &&
          !plainRegistered.has(r.split(' ')[1]!.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')) &&
          !notFuzzed.some((n) => n.route.test(r)),
      ),
      'routes the fuzz suite does not cover',
    ).toEqual([]);
    expect(
      [...fuzzed].filter((r) => !registered.has(r)),
      'operations the app does not register',
    ).toEqual([]);
    expect(fuzzed.size).toBeGreaterThan(50);
  });

  for (const op of operations) {
    const call = `${op.method} ${op.path}`;
    it(
      call,
      async () => {
        await judgedAlone(call, async () => {
          for (const caller of callers) {
            const forgedArb =
              caller === 'anonymous'
                ? fc.option(forgedAuthorization, { nil: null, freq: 4 })
                : fc.constant(null);
            await fc.assert(
              fc.asyncProperty(requestArb(op, pool, !isRead(op)), forgedArb, (req, forged) =>
                check(op, caller, req, forged),
              ),
              { numRuns: runs, seed: seedFor(`${call} ${caller}`), endOnFailure: false },
            );
          }
        });
        expect(sent.get(call) ?? 0).toBeGreaterThanOrEqual(runs * callers.length);
      },
      Math.max(60_000, runs * 2_000),
    );
  }

  for (const route of plainRoutes) {
    it(
      `${route.methods.filter((m) => m !== 'HEAD').join(',')} ${route.url} (no schema: no 5xx, no trace)`,
      async () => {
        await judgedAlone(route.url, async () => {
          for (const caller of callers) {
            await fc.assert(
              fc.asyncProperty(plainRequestArb(route), (req) => checkPlain(route, caller, req)),
              { numRuns: runs, seed: seedFor(`${route.url} ${caller}`), endOnFailure: false },
            );
          }
        });
      },
      Math.max(60_000, runs * 2_000),
    );
  }

  it('leaves the database exactly as it was', async () => {
    expect(snapshotDiff(original, await dump())).toBeNull();
  });
});
