// 6. Memory of the whole process tree that `npm start` leaves running (npm, its shell, the server, any child):
// at rest after a first start and after a restart, on PGlite and on the PostgreSQL server; the peak under
// 10,000 requests and under uploads of a 12-megapixel JPEG against `sharp` alone on the same file (same run);
// whether the rest grows over the long run; and the split of each process from /proc/<pid>/smaps_rollup.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, root, sleep } from '../lib/proc.mjs';
import { createDatabase, dropDatabase } from '../lib/pg.mjs';
import { treeMemory, treePeak, untilIdle } from '../lib/tree.mjs';

const exampleIds = [1, 2, 3].map((n) => `6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a0${n}`);
const exampleId = exampleIds[0];

/** The three example memorials answer (made, with their photos, at the end of a first start's seeding). */
async function examplesMade(url) {
  const t0 = Date.now();
  for (;;) {
    const codes = await Promise.all(
      exampleIds.map((id) => fetch(`${url}/core/memorial/${id}`).then((r) => (r.body?.cancel(), r.status))),
    );
    if (codes.every((c) => c === 200)) return;
    if (Date.now() - t0 > 900_000)
      throw new Error(`the example memorials were not made: ${codes.join(', ')}`);
    await sleep(500);
  }
}

/** A memory step (bench/memory-steps.ts) on Node's own type stripping; its last stdout line is JSON. */
function step(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bench/memory-steps.ts'), ...args], {
      cwd: root,
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`memory-steps ${args[1]} exited with ${code}:\n${err.slice(-2000)}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

/**
 * Starts the server as a person does: `npm start` in the repository (in a process group of its own, so
 * stopping it is Ctrl-C: SIGTERM to the group). `launcher: 'node'` runs the server's file without npm.
 */
async function start({ env, logFile, launcher }) {
  const out = fs.openSync(logFile, 'a');
  const [command, args, cwd] =
    launcher === 'node'
      ? [process.execPath, ['src/server.ts'], path.join(root, 'apps/server')]
      : ['npm', ['start', '--silent'], root];
  const t0 = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
    detached: true,
  });
  fs.closeSync(out);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  for (;;) {
    if (exited) throw new Error(`npm start exited (${JSON.stringify(exited)}); see ${logFile}`);
    try {
      if ((await fetch(`${env.PUBLIC_URL}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > 180_000) {
      process.kill(-child.pid, 'SIGKILL');
      throw new Error(`not healthy after 180 s; see ${logFile}`);
    }
    await sleep(50);
  }
  return {
    pid: child.pid,
    healthyMs: performance.now() - t0,
    async stop() {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
      // npm may exit before the server has: wait until nothing of the group is left.
      for (let i = 0; i < 200; i++) {
        try {
          process.kill(-child.pid, 0);
        } catch {
          break;
        }
        await sleep(50);
      }
    },
  };
}

const imageProcessLeft = (pid) =>
  treeMemory(pid, root).processes.some((p) => /image-process/.test(p.command));

/**
 * At rest: the example memorials made, the tree idle (their background variants done) and the image process let
 * go (it exits a few seconds after its last task; on a busy machine the background variants of a first start take
 * minutes: 10 minutes at most are waited for), then its memory.
 */
async function atRest(pid, url) {
  const t0 = Date.now();
  await examplesMade(url);
  let idle = await untilIdle(pid);
  while (imageProcessLeft(pid) && Date.now() - t0 < 600_000) {
    await sleep(250);
    if (!imageProcessLeft(pid)) idle = await untilIdle(pid);
  }
  return { ...treeMemory(pid, root), idle: idle.idle, waitedMs: Date.now() - t0 };
}

async function requests(url, total, concurrency) {
  const kinds = [
    () => fetch(`${url}/core/memorial/${exampleId}`),
    () =>
      fetch(`${url}/core/memories/query-memorial`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ memorialId: exampleId }),
      }),
    () => fetch(`${url}/`),
    () => fetch(`${url}/core/memorial/${exampleId}`, { headers: { 'accept-encoding': 'br' } }),
  ];
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const res = await kinds[next++ % kinds.length]();
        await res.arrayBuffer();
        if (!res.ok) failed++;
      }
    }),
  );
  return { total, failed };
}

async function api(url, headers, method, pathName, body) {
  const res = await fetch(`${url}${pathName}`, {
    method,
    headers: { ...headers, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${pathName}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

let uploads = 0;
/**
 * One photo uploaded to a new memory, then the tree left until its background variants are made. Each from an
 * address of its own (the server trusts X-Forwarded-For here): making memories is limited to 60 an hour per
 * address, and the long run makes 200.
 */
async function upload(url, authHeaders, memorialId, jpeg) {
  const n = uploads++;
  const headers = { ...authHeaders, 'x-forwarded-for': `10.9.${Math.floor(n / 250)}.${(n % 250) + 1}` };
  const memory = await api(url, headers, 'POST', '/core/memories/concept', {
    memorialId,
    yearLabel: '2024',
    text: 'Met foto.',
  });
  const form = new FormData();
  form.append('memoryId', memory.id);
  form.append('media', new Blob([jpeg], { type: 'image/jpeg' }), 'foto.jpg');
  return api(url, headers, 'POST', '/core/memory/medias', form);
}

async function measureDatabase({ db, tmp, adminUrl, jpeg, counts, launcher, env: extraEnv, log }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = path.join(tmp, `memory-${db}`);
  const database = db === 'postgres' ? await createDatabase(adminUrl, 'memory') : null;
  const env = {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? '',
    RATE_LIMIT_MAX: '1000000000',
    TRUST_PROXY: 'true',
    ...extraEnv,
  };
  const logFile = path.join(tmp, `memory-${db}.log`);
  const label = db === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const result = { db, launcher };
  try {
    let server = await start({ env, logFile, launcher });
    result.first = { healthyMs: server.healthyMs, ...(await atRest(server.pid, url)) };
    log(`memory: ${label}, first start: ${result.first.rssMb.toFixed(0)} MB at rest`);
    await server.stop();

    server = await start({ env, logFile, launcher });
    result.restart = { healthyMs: server.healthyMs, ...(await atRest(server.pid, url)) };
    log(`memory: ${label}, restart: ${result.restart.rssMb.toFixed(0)} MB at rest`);
    await server.stop();

    const owner = await step([
      '--mode',
      'token',
      '--data-dir',
      dataDir,
      '--public-url',
      url,
      ...(database ? ['--database-url', database.url] : []),
    ]);
    server = await start({ env, logFile, launcher });
    try {
      const before = await atRest(server.pid, url);
      result.beforeLoad = { rssMb: before.rssMb };
      const loadStart = performance.now();
      const load = await treePeak(server.pid, () => requests(url, counts.requests, 16));
      const loadSeconds = (performance.now() - loadStart) / 1000;
      const afterLoad = await atRest(server.pid, url);
      result.load = { ...load.result, seconds: loadSeconds, peakMb: load.peakMb, afterMb: afterLoad.rssMb };
      log(
        `memory: ${label}, ${counts.requests} requests: peak ${load.peakMb.toFixed(0)} MB, ${afterLoad.rssMb.toFixed(0)} MB after`,
      );

      const memorial = await api(url, owner.headers, 'POST', '/core/memorial/concept', {
        firstName: 'Foto',
        lastName: 'Meting',
      });
      const uploads = [];
      let peakMb = 0;
      for (let i = 0; i < counts.uploads; i++) {
        const one = await treePeak(server.pid, async () => {
          await upload(url, owner.headers, memorial.id, jpeg);
          await untilIdle(server.pid, { windowMs: 500 });
        });
        if (i === 0) result.firstUploadPeakMb = one.peakMb;
        peakMb = Math.max(peakMb, one.peakMb);
        uploads.push(one.peakMb);
      }
      const afterUploads = await atRest(server.pid, url);
      result.uploads = { count: counts.uploads, peakMb, afterMb: afterUploads.rssMb };
      result.afterAll = afterUploads;
      log(
        `memory: ${label}, ${counts.uploads} uploads: first ${result.firstUploadPeakMb.toFixed(0)} MB, highest ${peakMb.toFixed(0)} MB, ${afterUploads.rssMb.toFixed(0)} MB after`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    if (database) await dropDatabase(adminUrl, database.name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return result;
}

/**
 * `launcher`, `env`, `dbs`, `counts`, `jpeg` and `floorRuns` are for comparing arrangements by hand (see
 * docs/decisions/015-memory.md); `npm run bench` measures `npm start` as it is.
 */
export async function memorySection({
  tmp,
  quick,
  adminUrl,
  log,
  launcher = 'npm',
  env = {},
  dbs = ['postgres', 'pglite'],
  counts: given,
  jpeg: givenJpeg,
  floorRuns = 3,
}) {
  const file = givenJpeg ?? path.join(tmp, 'memory-12mp.jpg');
  const image = givenJpeg
    ? { file, width: 4000, height: 3000, bytes: fs.statSync(file).size }
    : await step(['--mode', 'make', '--file', file]);
  const jpeg = fs.readFileSync(file);
  // sharp alone on the same file, in a process of its own (three times: its peak varies by a few MB).
  const floors = [];
  for (let i = 0; i < floorRuns; i++) floors.push(await step(['--mode', 'sharp', '--file', file]));
  const sharpAlone = floors.sort((a, b) => a.peakMb - b.peakMb)[Math.floor(floors.length / 2)] ?? null;
  if (sharpAlone)
    log(`memory: sharp alone on the 12-megapixel JPEG: peak ${sharpAlone.peakMb.toFixed(0)} MB`);
  const counts = given ?? (quick ? { requests: 2000, uploads: 10 } : { requests: 10_000, uploads: 200 });
  const runs = [];
  for (const db of dbs)
    runs.push(await measureDatabase({ db, tmp, adminUrl, jpeg, counts, launcher, env, log }));
  return { image, sharpAlone, counts, launcher, env, runs };
}
