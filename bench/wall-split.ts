// The uncached wall's cost split in two: the whole request through the real route, in-process and one at a
// time (app.inject, no network), and the part of it spent waiting on the database client's calls. On PGlite
// that part is work in this thread, and PGlite runs one statement at a time in one session, so 1 s divided
// by it is the most wall pages per second any arrangement of PGlite could answer (in this thread or in a
// worker thread of its own), whatever the HTTP side costs.
// Reported: the one-second stretch with the least time in the database client (see below).
// Usage: node --import tsx bench/wall-split.ts --data-dir DIR --memorial-id ID [--database-url URL] [--seconds 5]
import { arg, openApp, report } from './lib/app.ts';

const memorialId = arg('memorial-id')!;
const seconds = Number(arg('seconds') ?? 5);
const b = await openApp({
  dataDir: arg('data-dir')!,
  databaseUrl: arg('database-url'),
  env: { RESPONSE_CACHE_MB: '0' },
});

let dbNs = 0n;
const query = b.db.query.bind(b.db);
b.db.query = (async (sql: string, params?: unknown[]) => {
  const t0 = process.hrtime.bigint();
  try {
    return await query(sql, params);
  } finally {
    dbNs += process.hrtime.bigint() - t0;
  }
}) as typeof b.db.query;

async function wallPage() {
  const res = await b.app.inject({
    method: 'POST',
    url: '/core/memories/query-memorial',
    payload: { memorialId },
  });
  if (res.statusCode !== 200) throw new Error(`wall: ${res.statusCode} ${res.body.slice(0, 200)}`);
}

// Warm-up (JIT, the statement's plan, the cards), then one-second stretches. The machine is shared, so the
// stretch whose database part was the least is the one reported: the most generous ceiling measured.
const warmUntil = Date.now() + 2000;
while (Date.now() < warmUntil) await wallPage();
const stretches: { requests: number; statements: number; requestUs: number; dbUs: number }[] = [];
for (let i = 0; i < Math.max(1, seconds); i++) {
  dbNs = 0n;
  const statements = b.db.statementCount;
  let requests = 0;
  const t0 = process.hrtime.bigint();
  const until = Date.now() + 1000;
  while (Date.now() < until) {
    await wallPage();
    requests++;
  }
  stretches.push({
    requests,
    statements: b.db.statementCount - statements,
    requestUs: Number(process.hrtime.bigint() - t0) / requests / 1000,
    dbUs: Number(dbNs) / requests / 1000,
  });
}
await b.close();

const best = stretches.reduce((a, s) => (s.dbUs < a.dbUs ? s : a));
report({
  stretches: stretches.length,
  requests: best.requests,
  statementsPerRequest: best.statements / best.requests,
  requestUs: best.requestUs,
  dbUs: best.dbUs,
  appUs: best.requestUs - best.dbUs,
  dbCeilingRps: 1e6 / best.dbUs,
  dbUsPerStretch: stretches.map((s) => Math.round(s.dbUs)),
});
