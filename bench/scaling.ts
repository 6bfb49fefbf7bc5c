// The wall's cost per page at 100, 10,000 and 100,000 memories on one memorial (keyset pagination on
// memories_wall_idx), and the SQL statements per request at different page sizes. The response cache is
// off here: this measures the query path itself, through the real route (app.inject, no network).
// Usage: node --import tsx bench/scaling.ts --data-dir DIR [--database-url URL] [--sizes 100,10000,100000] [--reps 30]
import { encodeCursor } from '../apps/server/src/shared/pagination.ts';
import { arg, openApp, report, userToken } from './lib/app.ts';
import { median } from './lib/stats.mjs';

const sizes = (arg('sizes') ?? '100,10000,100000').split(',').map(Number);
const reps = Number(arg('reps') ?? 30);
const b = await openApp({
  dataDir: arg('data-dir')!,
  databaseUrl: arg('database-url'),
  env: { RESPONSE_CACHE_MB: '0' },
});

const owner = await userToken(b, 'schaal@bench.aandenken.test', 'Schaal Eigenaar');
const concept = await b.app.inject({
  method: 'POST',
  url: '/core/memorial/concept',
  headers: owner.headers,
  payload: { firstName: 'Schaal', lastName: 'Test' },
});
const memorialId = concept.json().id as string;
const published = await b.app.inject({
  method: 'PUT',
  url: '/core/memorial',
  headers: owner.headers,
  payload: { id: memorialId, status: 'active', visibility: 'public' },
});
if (published.statusCode !== 200) throw new Error(published.body);

/** A cursor pointing `offset` rows into the wall (what a visitor gets after paging that far). */
async function cursorAt(offset: number) {
  const { rows } = await b.db.query<{ ts: string; id: string }>(
    `SELECT created_at::text AS ts, id FROM memories WHERE memorial_id = $1 AND status = 'published'
      ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [memorialId, offset],
  );
  return rows[0] ? encodeCursor([rows[0].ts, rows[0].id]) : null;
}

async function timePage(payload: Record<string, unknown>) {
  const run = async () => {
    const before = b.db.statementCount;
    const t0 = process.hrtime.bigint();
    const res = await b.app.inject({
      method: 'POST',
      url: '/core/memories/query-memorial',
      payload: { memorialId, ...payload },
    });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.statusCode !== 200) throw new Error(res.body);
    return { ms, statements: b.db.statementCount - before, items: (res.json().items as unknown[]).length };
  };
  for (let i = 0; i < 5; i++) await run();
  const samples = [];
  for (let i = 0; i < reps; i++) samples.push(await run());
  const times = samples.map((s) => s.ms).sort((x, y) => x - y);
  return {
    medianMs: median(times),
    p90Ms: times[Math.floor(times.length * 0.9)]!,
    statements: median(samples.map((s) => s.statements)),
    items: samples[0]!.items,
  };
}

const results = [];
let have = 0;
for (const size of sizes) {
  const t0 = Date.now();
  // Straight into the table (the per-memory route would take hours at 100,000); one statement per batch.
  while (have < size) {
    const n = Math.min(size - have, 20_000);
    await b.db.query(
      `INSERT INTO memories (memorial_id, year_label, body, status, members_only, author_kind, author_user_id, author_name, published_at, created_at, updated_at)
       SELECT $1, (1950 + g % 70)::text, 'Herinnering ' || g || ': we fietsten elke zondag langs de IJssel naar het theehuis.',
              'published', g % 10 = 0, 'user', $2, NULL,
              now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
         FROM generate_series($3::int, $4::int) g`,
      [memorialId, owner.userId, have + 1, have + n],
    );
    have += n;
  }
  await b.db.exec('ANALYZE memories');
  const seedSeconds = (Date.now() - t0) / 1000;
  const first = await timePage({ limit: 20 });
  const middle = await timePage({ limit: 20, cursor: await cursorAt(Math.floor(size / 2)) });
  const last = await timePage({ limit: 20, cursor: await cursorAt(Math.max(0, size - 21)) });
  const statementsBySize: Record<string, number> = {};
  for (const limit of [1, 20, 50]) statementsBySize[limit] = (await timePage({ limit })).statements;
  results.push({ memories: size, seedSeconds, first, middle, last, statementsBySize });
  process.stderr.write(
    `scaling ${b.db.kind} ${size}: first ${first.medianMs.toFixed(2)} ms, middle ${middle.medianMs.toFixed(2)} ms\n`,
  );
}
const kind = b.db.kind;
await b.close();
report({ db: kind, results });
