// 1. API throughput against the bare node:http baseline, on PGlite and on the PostgreSQL server; also the
// server's memory at rest and under this load (item 5).
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { memoryOf, runStep, sampleMemory, startBaseline, startFloor, startServer } from '../lib/proc.mjs';
import { createDatabase, dropDatabase } from '../lib/pg.mjs';
import { median } from '../lib/stats.mjs';

const CONNECTIONS = 50;

async function load(url, request, { seconds }) {
  const r = await autocannon({ url, connections: CONNECTIONS, ...request, duration: seconds });
  return {
    rps: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

/** One figure from several rounds: medians of the rates and latencies, sums of the counts. */
const combine = (runs) => ({
  rps: median(runs.map((r) => r.rps)),
  p50Ms: median(runs.map((r) => r.p50Ms)),
  p99Ms: median(runs.map((r) => r.p99Ms)),
  errors: runs.reduce((n, r) => n + r.errors, 0),
  non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
  requests: runs.reduce((n, r) => n + r.requests, 0),
  rounds: runs.map((r) => Math.round(r.rps)),
});

/**
 * The app and the bare baseline, warmed up, then loaded in turns (app, baseline, app, …): the machine is
 * shared, and what else runs on it changes by the minute, so each round's ratio is taken between loads
 * seconds apart, and the median round's ratio is reported.
 */
async function compare(appUrl, baseUrl, request, { warmSeconds, seconds, rounds }) {
  await autocannon({ url: appUrl, connections: CONNECTIONS, ...request, duration: warmSeconds });
  await autocannon({ url: baseUrl, connections: CONNECTIONS, ...request, duration: 1 });
  const apps = [];
  const bases = [];
  for (let i = 0; i < rounds; i++) {
    apps.push(await load(appUrl, request, { seconds }));
    bases.push(await load(baseUrl, request, { seconds }));
  }
  return {
    app: combine(apps),
    baseline: combine(bases),
    ratio: median(apps.map((a, i) => a.rps / bases[i].rps)),
  };
}

async function fetchBody(url, request) {
  const res = await fetch(url, { method: request.method, headers: request.headers, body: request.body });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200)
    throw new Error(`${request.method} ${url}: ${res.status} ${body.toString().slice(0, 200)}`);
  return { body, cache: res.headers.get('x-cache'), contentType: res.headers.get('content-type') };
}

export async function apiSection({ tmp, quick, adminUrl, log }) {
  const timing = quick
    ? { warmSeconds: 1, seconds: 3, rounds: 1 }
    : { warmSeconds: 3, seconds: 5, rounds: 3 };
  const dataDir = path.join(tmp, 'api-data');
  log('api: seeding a public memorial with 200 memories and 50 photos (real routes and media pipeline)…');
  const seed = await runStep('seed-api.ts', ['--data-dir', dataDir], { log });
  log(`api: seeded in ${seed.seconds.toFixed(0)} s: ${JSON.stringify(seed)}`);
  const database = await createDatabase(adminUrl, 'api');
  await runStep('copy-db.ts', ['--data-dir', dataDir, '--database-url', database.url], { log });

  const targets = {
    memorial: { path: `/core/memorial/${seed.memorialId}`, request: { method: 'GET' } },
    wall: {
      path: '/core/memories/query-memorial',
      request: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ memorialId: seed.memorialId }),
      },
    },
  };
  const results = { seed, runs: [], rounds: timing.rounds, seconds: timing.seconds };
  try {
    for (const db of ['pglite', 'postgres']) {
      const databaseUrl = db === 'postgres' ? database.url : undefined;
      for (const cache of [true, false]) {
        const server = await startServer({
          dataDir,
          databaseUrl,
          env: { SEED_EXAMPLES: 'false', ...(cache ? {} : { RESPONSE_CACHE_MB: '0' }) },
          logFile: path.join(tmp, `server-${db}-${cache ? 'cached' : 'uncached'}.log`),
        });
        try {
          const rest = memoryOf(server.pid);
          // Uncached, only the wall has a target (the memorial read's uncached cost shows in section 2's terms).
          for (const [name, target] of Object.entries(targets).filter(([n]) => cache || n === 'wall')) {
            const {
              body,
              cache: xCache,
              contentType,
            } = await fetchBody(server.url + target.path, target.request);
            if (cache && xCache !== 'hit' && xCache !== 'miss')
              throw new Error(`${name}: no cache header on ${db}`);
            const bodyFile = path.join(tmp, `${name}.json`);
            fs.writeFileSync(bodyFile, body);
            const base = await startBaseline({
              bodyFile,
              contentType,
              logFile: path.join(tmp, 'baseline.log'),
            });
            let measured;
            let maxRssMb;
            try {
              ({ result: measured, maxRssMb } = await sampleMemory(server.pid, () =>
                compare(server.url + target.path, base.url + target.path, target.request, timing),
              ));
            } finally {
              await base.stop();
            }
            const { app, baseline, ratio } = measured;
            // The answer after the load is still the same bytes (and, cached, from the cache).
            const after = await fetchBody(server.url + target.path, target.request);
            if (!after.body.equals(body)) throw new Error(`${name} on ${db}: the answer changed under load`);
            const run = {
              db,
              target: name,
              cache,
              bytes: body.length,
              app,
              baseline,
              ratio,
            };
            Object.assign(run, { restMb: rest.rssMb, loadMaxRssMb: maxRssMb });
            results.runs.push(run);
            log(
              `api: ${db} ${name} ${cache ? 'cached' : 'uncached'}: ${app.rps.toFixed(0)} req/s, p99 ${app.p99Ms} ms, errors ${app.errors}, non-2xx ${app.non2xx}` +
                `; baseline ${baseline.rps.toFixed(0)} req/s → ${(ratio * 100).toFixed(1)}% (rounds: app ${app.rounds.join(', ')}; baseline ${baseline.rounds.join(', ')})`,
            );
          }
        } finally {
          await server.stop();
        }
      }
      // The floor on this database: the framework and one indexed query, answering the wall's bytes.
      const wallBody = path.join(tmp, 'wall.json');
      const floorServer = await startFloor({
        bodyFile: wallBody,
        contentType: 'application/json; charset=utf-8',
        dataDir,
        databaseUrl,
        logFile: path.join(tmp, `floor-${db}.log`),
      });
      const floorBase = await startBaseline({
        bodyFile: wallBody,
        contentType: 'application/json; charset=utf-8',
        logFile: path.join(tmp, 'baseline.log'),
      });
      try {
        const m = await compare(
          floorServer.url + targets.wall.path,
          floorBase.url + targets.wall.path,
          targets.wall.request,
          timing,
        );
        const floor = { ...m.app, baselineRps: m.baseline.rps, ratio: m.ratio };
        results.floors = { ...results.floors, [db]: floor };
        log(
          `api: ${db} floor (Fastify + one indexed query): ${floor.rps.toFixed(0)} req/s, p99 ${floor.p99Ms} ms; ${(m.ratio * 100).toFixed(1)}% of the baseline`,
        );
      } finally {
        await floorBase.stop();
        await floorServer.stop();
      }
      // The uncached wall split into the database's part and the rest (no network, one request at a time).
      const split = await runStep(
        'wall-split.ts',
        [
          ...['--data-dir', dataDir, '--memorial-id', seed.memorialId, '--seconds', String(timing.seconds)],
          ...(databaseUrl ? ['--database-url', databaseUrl] : []),
        ],
        { log },
      );
      results.splits = { ...results.splits, [db]: split };
      log(
        `api: ${db} wall split: ${split.requestUs.toFixed(0)} µs a request, ${split.dbUs.toFixed(0)} µs of it in the database client`,
      );
    }
  } finally {
    await dropDatabase(adminUrl, database.name);
  }
  return results;
}
