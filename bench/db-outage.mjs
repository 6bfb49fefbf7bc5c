#!/usr/bin/env node
// The PostgreSQL server goes away during writes, simulated without stopping the shared server: a TCP
// proxy of ours sits between the app and PostgreSQL and is cut (connections reset, new ones refused) for a few
// seconds, then restored. Candles are lit at a steady rate as the web client does it (Idempotency-Key, one retry
// after a 503 or a network error). Measured: the answers during the outage (503 with Retry-After, never 500),
// how soon the first 503 came, how soon the app served again after the database's return (no restart), and
// whether every acknowledged candle is in the database exactly once.
//   node bench/db-outage.mjs [--outage 3] [--before 5] [--after 10] [--rate 20] [--port 8301] [--proxy-port 8305]
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) creates and drops the run's database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchPackages } from './lib/install.mjs';

ensureBenchPackages();
const {
  argValue,
  checkLedger,
  healthWatch,
  openDb,
  seed,
  sleep,
  startApp,
  steadyWrites,
  tally,
  writeResult,
} = await import('./lib/reliability.mjs');
const { createDatabase, dropDatabase, reachable } = await import('./lib/pg.mjs');
const { startTcpProxy } = await import('../apps/server/test/tcp-proxy.ts');

const outage = Number(argValue('outage', 3));
const before = Number(argValue('before', 5));
const after = Number(argValue('after', 10));
const rate = Number(argValue('rate', 20));
const port = Number(argValue('port', 8301));
const proxyPort = Number(argValue('proxy-port', 8305));
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const log = (m) => console.error(`[db-outage] ${m}`);
if (!(await reachable(adminUrl))) {
  console.error(`De PostgreSQL-server op ${adminUrl} antwoordt niet (zet BENCH_DATABASE_URL).`);
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-outage-'));
const dataDir = path.join(tmp, 'data');
const database = await createDatabase(adminUrl, 'outage');
const admin = new URL(database.url);
const proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) }, proxyPort);
const viaProxy = new URL(database.url);
viaProxy.hostname = '127.0.0.1';
viaProxy.port = String(proxyPort);
let result;
try {
  log('seeding (directly on the server)…');
  const info = await seed({ dataDir, databaseUrl: database.url, memories: 2, port });
  const server = await startApp({
    dataDir,
    databaseUrl: viaProxy.toString(),
    port,
    logFile: path.join(tmp, 'server.log'),
  });
  const health = healthWatch(server.url);
  let exitedDuringRun = null;
  server.child.on('exit', (code, signal) => (exitedDuringRun ??= { code, signal }));
  const writer = steadyWrites(server.url, info, { perSecond: rate, kinds: ['candle'], tag: 'outage' });
  await sleep(before * 1000);
  log(`cutting the database for ${outage} s…`);
  const cutAt = Date.now();
  await proxy.cut();
  await sleep(outage * 1000);
  await proxy.restore();
  const restoredAt = Date.now();
  log('database back');
  await sleep(after * 1000);
  const ledger = await writer.stop();
  health.stop();
  const stayedUp = exitedDuringRun === null;
  if (!stayedUp) console.error(fs.readFileSync(path.join(tmp, 'server.log'), 'utf8').slice(-4000));
  await server.stop();

  const during = ledger.filter((w) => w.started >= cutAt && w.started < restoredAt);
  const first503 = ledger
    .filter((w) => w.first === 503 && w.started >= cutAt)
    .map((w) => w.started + w.firstMs)
    .sort((a, b) => a - b)[0];
  const healthDown = health.firstAfter(cutAt, (s) => s === 503);
  const healthBack = health.firstAfter(restoredAt, (s) => s === 200);
  const firstWriteBack = ledger
    .filter((w) => w.started >= restoredAt && w.first === 201)
    .map((w) => w.started + w.firstMs)
    .sort((a, b) => a - b)[0];
  const db = await openDb({ databaseUrl: database.url });
  let check;
  try {
    check = await checkLedger(db, ledger);
  } finally {
    await db.close();
  }
  result = {
    date: new Date().toISOString(),
    command: `node bench/db-outage.mjs --outage ${outage} --before ${before} --after ${after} --rate ${rate}`,
    machine: `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    outageSeconds: outage,
    candlesPerSecond: rate,
    writes: ledger.length,
    firstTries: tally(ledger, true),
    afterOneRetry: tally(ledger),
    startedDuringOutage: during.length,
    firstTriesDuringOutage: tally(during, true),
    answers500: ledger.filter((w) => w.first === 500 || w.status === 500).length,
    first503AfterCutMs: first503 ? first503 - cutAt : null,
    health503AfterCutMs: healthDown ? healthDown - cutAt : null,
    healthBackAfterRestoreMs: healthBack ? healthBack - restoredAt : null,
    firstCandleBackAfterRestoreMs: firstWriteBack ? firstWriteBack - restoredAt : null,
    processStayedUp: stayedUp,
    ledger: check,
  };
} finally {
  await proxy.close();
  await dropDatabase(adminUrl, database.name);
  fs.rmSync(tmp, { recursive: true, force: true });
}
writeResult('db-outage', result);
const ok =
  result.answers500 === 0 &&
  result.processStayedUp &&
  result.ledger.missing === 0 &&
  result.ledger.duplicates === 0 &&
  (result.first503AfterCutMs ?? result.health503AfterCutMs ?? Infinity) < 2000 &&
  (result.healthBackAfterRestoreMs ?? Infinity) < 10_000;
process.exit(ok ? 0 : 1);
