#!/usr/bin/env node
// SIGTERM under load: reads (autocannon) and writes (candles, memories, photo uploads at a steady rate)
// run when the process gets SIGTERM. Measured: how long it takes to exit and with what code, what the requests
// under way got (none may end in a reset connection or a 500; new ones are refused or get 503 SHUTTING_DOWN),
// and after a restart on the same data folder: every acknowledged write present, no job left 'running', the
// jobs that were still queued done.
//   node bench/sigterm.mjs [--before 5] [--connections 50] [--writes 6] [--port 8302]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchPackages } from './lib/install.mjs';

ensureBenchPackages();
const { default: autocannon } = await import('autocannon');
const { argValue, checkLedger, openDb, seed, sleep, startApp, steadyWrites, tally, writeResult } =
  await import('./lib/reliability.mjs');

const before = Number(argValue('before', 5));
const connections = Number(argValue('connections', 50));
const writesPerSecond = Number(argValue('writes', 6));
const port = Number(argValue('port', 8302));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-sigterm-'));
const dataDir = path.join(tmp, 'data');
const log = (m) => console.error(`[sigterm] ${m}`);

log('seeding (PGlite)…');
const info = await seed({ dataDir, memories: 5, port });
const server = await startApp({ dataDir, port, logFile: path.join(tmp, 'server.log') });
// Whatever happens, no server of this run stays behind, nor its data folder.
process.on('exit', () => {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});
const exited = new Promise((resolve) =>
  server.child.once('exit', (code, signal) => resolve({ code, signal })),
);
const writer = steadyWrites(server.url, info, {
  perSecond: writesPerSecond,
  kinds: ['candle', 'memory', 'upload'],
  tag: 'sigterm',
  retry: false,
});
const reads = autocannon({
  url: `${server.url}/core/memorial/${info.memorialId}`,
  connections,
  duration: before + 4,
});
await sleep(before * 1000);
log('SIGTERM');
const signalledAt = Date.now();
server.child.kill('SIGTERM');
const exit = await exited;
const exitMs = Date.now() - signalledAt;
const ledger = await writer.stop();
const r = await reads;

const beforeSignal = ledger.filter((w) => w.started < signalledAt);
const afterSignal = ledger.filter((w) => w.started >= signalledAt);
// Accepted before the signal but cut off: a reset connection or an answer other than success / a clean refusal.
const cutOff = beforeSignal.filter(
  (w) => !(w.status >= 200 && w.status < 300) && w.status !== 503 && w.first !== 'error:ECONNREFUSED',
);

log('restarting on the same data folder…');
const again = await startApp({ dataDir, port, logFile: path.join(tmp, 'server-2.log') });
const restartMs = again.healthyMs;
await sleep(5000); // the queue takes up what was left
await again.stop();

const db = await openDb({ dataDir });
let check;
let jobs;
try {
  check = await checkLedger(db, ledger);
  jobs = (await db.query(`SELECT status, count(*)::int AS n FROM jobs GROUP BY status ORDER BY status`)).rows;
} finally {
  await db.close();
}
const result = {
  date: new Date().toISOString(),
  command: `node bench/sigterm.mjs --before ${before} --connections ${connections} --writes ${writesPerSecond}`,
  machine: `${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
  exit,
  exitMs,
  reads: { requests: r.requests.total, non2xx: r.non2xx, errorsAfterStop: r.errors, p99Ms: r.latency.p99 },
  writesBeforeSignal: tally(beforeSignal),
  writesAfterSignal: tally(afterSignal),
  cutOff: cutOff.map((w) => ({ kind: w.kind, status: w.status, code: w.code })),
  answers500: ledger.filter((w) => w.status >= 500 && w.status !== 503).length,
  restartHealthyMs: Math.round(restartMs),
  jobsAfterRestart: jobs,
  ledger: check,
};
writeResult('sigterm', result);
fs.rmSync(tmp, { recursive: true, force: true });
const ok =
  exit.code === 0 &&
  exitMs < 10_000 &&
  cutOff.length === 0 &&
  result.answers500 === 0 &&
  check.missing === 0 &&
  check.duplicates === 0 &&
  !jobs.some((j) => j.status === 'running');
process.exit(ok ? 0 : 1);
