#!/usr/bin/env node
// kill -9 during uploads and writes on PGlite. Candles, memories and photo uploads (about 1.5 MB
// each, so some are mid-flight) are written at a steady rate; the process is killed with SIGKILL. Then: the
// database opens again on restart, every acknowledged write is there, every stored media file matches the
// checksum its row records (nothing half-written is served), and the orphan cleanup leaves nothing behind that no
// row names (storage folders, .tmp- files, temporary uploads).
//   node bench/kill9.mjs [--before 6] [--writes 6] [--upload-kb 1500] [--port 8303]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchPackages } from './lib/install.mjs';

ensureBenchPackages();
const { argValue, checkLedger, openDb, seed, sleep, startApp, steadyWrites, tally, writeResult } =
  await import('./lib/reliability.mjs');
const { sweepMediaOrphans } = await import('../apps/server/src/lib/media/orphans.ts');

const before = Number(argValue('before', 6));
const writesPerSecond = Number(argValue('writes', 6));
const uploadKb = Number(argValue('upload-kb', 1500));
const port = Number(argValue('port', 8303));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-kill9-'));
const dataDir = path.join(tmp, 'data');
const mediaRoot = path.join(dataDir, 'media');
const tmpDir = path.join(dataDir, 'tmp');
const log = (m) => console.error(`[kill9] ${m}`);

/** What lies in storage that no row names, and half-written files. */
function leftovers(knownIds) {
  const dirs = fs.existsSync(mediaRoot) ? fs.readdirSync(mediaRoot) : [];
  const orphanFolders = dirs.filter((d) => !knownIds.has(d)).length;
  const tmpFiles = dirs
    .filter((d) => knownIds.has(d))
    .flatMap((d) => fs.readdirSync(path.join(mediaRoot, d)))
    .filter((f) => f.includes('.tmp-')).length;
  const uploads = (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []).filter((f) =>
    f.startsWith('upload-'),
  ).length;
  return { orphanFolders, tmpFiles, uploads };
}

log('seeding (PGlite)…');
const info = await seed({ dataDir, memories: 2, port });
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
  kinds: ['candle', 'upload', 'memory', 'upload'],
  tag: 'kill9',
  uploadKb,
  retry: false,
});
await sleep(before * 1000);
log('SIGKILL');
const killedAt = Date.now();
server.child.kill('SIGKILL');
await exited;
const ledger = await writer.stop();

log('restarting on the same data folder…');
let restart;
try {
  const again = await startApp({ dataDir, port, logFile: path.join(tmp, 'server-2.log') });
  restart = { opened: true, healthyMs: Math.round(again.healthyMs) };
  await sleep(3000); // background jobs (photo variants) of acknowledged uploads continue
  await again.stop();
} catch (err) {
  restart = { opened: false, error: String(err.message ?? err) };
}

let check;
let media;
let before9;
let after9;
let swept;
if (restart.opened) {
  const db = await openDb({ dataDir });
  try {
    check = await checkLedger(db, ledger);
    const files = (
      await db.query(
        `SELECT m.id::text AS id, m.status, v.storage_key, v.sha256 FROM media m
           JOIN media_variants v ON v.media_id = m.id`,
      )
    ).rows;
    const bad = files.filter((f) => {
      const p = path.join(mediaRoot, f.storage_key);
      return !fs.existsSync(p) || createHash('sha256').update(fs.readFileSync(p)).digest('hex') !== f.sha256;
    });
    media = { variantsChecked: files.length, mismatched: bad.length };
    const ids = new Set(
      (await db.query(`SELECT id::text AS id FROM media UNION SELECT id::text FROM exports`)).rows.map(
        (r) => r.id,
      ),
    );
    before9 = leftovers(ids);
    swept = await sweepMediaOrphans({ db, mediaRoot, tmpDir, olderThanMs: 0 });
    after9 = leftovers(ids);
  } finally {
    await db.close();
  }
}

const result = {
  date: new Date().toISOString(),
  command: `node bench/kill9.mjs --before ${before} --writes ${writesPerSecond} --upload-kb ${uploadKb}`,
  machine: `${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
  writes: tally(ledger),
  // Writes cut off by the kill: sent before it, answered by a broken connection.
  cutOffByKill: ledger.filter((w) => w.started < killedAt && w.status === 0).length,
  restart,
  ledger: check,
  media,
  leftoversBeforeCleanup: before9,
  cleanup: swept,
  leftoversAfterCleanup: after9,
};
writeResult('kill9', result);
fs.rmSync(tmp, { recursive: true, force: true });
const ok =
  restart.opened &&
  check.missing === 0 &&
  check.duplicates === 0 &&
  media.mismatched === 0 &&
  after9.orphanFolders + after9.tmpFiles + after9.uploads === 0;
process.exit(ok ? 0 : 1);
