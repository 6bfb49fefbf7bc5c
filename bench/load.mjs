#!/usr/bin/env node
// Load with writes alongside: autocannon at 100 connections on a memorial's API read, its memory wall
// and its HTML page, one after the other, while candles, memories and photo uploads are written at a steady
// rate; every acknowledged write is then looked up in the database (0 missing, 0 twice).
//   node bench/load.mjs [--seconds 30] [--connections 100] [--writes 6] [--port 8300]
// PGlite in a temporary data folder; the web app must be built (npm run build) for the HTML target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchPackages } from './lib/install.mjs';

ensureBenchPackages();
const { default: autocannon } = await import('autocannon');
const { argValue, checkLedger, openDb, seed, startApp, steadyWrites, tally, writeResult } =
  await import('./lib/reliability.mjs');

const seconds = Number(argValue('seconds', 30));
const connections = Number(argValue('connections', 100));
const writesPerSecond = Number(argValue('writes', 6));
const port = Number(argValue('port', 8300));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-load-'));
const dataDir = path.join(tmp, 'data');
const log = (m) => console.error(`[load] ${m}`);

log('seeding a public memorial (PGlite)…');
const info = await seed({ dataDir, port });
const server = await startApp({ dataDir, port, logFile: path.join(tmp, 'server.log') });
// Whatever happens, no server of this run stays behind, nor its data folder.
process.on('exit', () => {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});
log(`server on ${server.url} (log: ${path.join(tmp, 'server.log')})`);

const targets = {
  memorial: { path: `/core/memorial/${info.memorialId}`, method: 'GET' },
  wall: {
    path: '/core/memories/query-memorial',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ memorialId: info.memorialId }),
  },
  html: { path: `/memorial/${info.memorialId}`, method: 'GET' },
};

const runs = {};
const writers = [];
try {
  for (const [name, t] of Object.entries(targets)) {
    const first = await fetch(server.url + t.path, { method: t.method, headers: t.headers, body: t.body });
    if (first.status !== 200)
      throw new Error(
        `${name}: ${first.status} ${(await first.text()).slice(0, 300)} ${JSON.stringify(info)}`,
      );
    const writer = steadyWrites(server.url, info, {
      perSecond: writesPerSecond,
      kinds: ['candle', 'memory', 'upload'],
      tag: `load-${name}`,
      retry: false,
    });
    writers.push(writer);
    log(`${name}: ${connections} connections for ${seconds} s, ${writesPerSecond} writes/s alongside…`);
    const r = await autocannon({
      url: server.url + t.path,
      method: t.method,
      headers: t.headers,
      body: t.body,
      connections,
      duration: seconds,
    });
    const ledger = await writer.stop();
    const writeMs = ledger.map((w) => w.ms).sort((a, b) => a - b);
    runs[name] = {
      rps: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      requests: r.requests.total,
      errors: r.errors + r.timeouts,
      non2xx: r.non2xx,
      writes: {
        count: ledger.length,
        statuses: tally(ledger),
        p99Ms: Math.round(writeMs[Math.floor(writeMs.length * 0.99)] ?? 0),
      },
    };
    log(`${name}: ${JSON.stringify(runs[name])}`);
  }
} finally {
  await server.stop();
}

const db = await openDb({ dataDir });
let ledgerCheck;
try {
  ledgerCheck = await checkLedger(
    db,
    writers.flatMap((w) => w.ledger),
  );
} finally {
  await db.close();
}
writeResult('load', {
  date: new Date().toISOString(),
  command: `node bench/load.mjs --seconds ${seconds} --connections ${connections} --writes ${writesPerSecond}`,
  machine: `${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
  runs,
  ledger: ledgerCheck,
});
fs.rmSync(tmp, { recursive: true, force: true });
const failed =
  ledgerCheck.missing > 0 || ledgerCheck.duplicates > 0 || Object.values(runs).some((r) => r.errors > 0);
process.exit(failed ? 1 : 0);
