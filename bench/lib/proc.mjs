// Processes for the benchmark: the built server, the bare node:http baseline, TypeScript steps, memory probes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const serverDir = path.join(root, 'apps/server');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const listenOn = (port) =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(port, '127.0.0.1', () => {
      const { port: got } = srv.address();
      srv.close(() => resolve(got));
    });
    srv.on('error', reject);
  });

/**
 * A port nobody listens on: one the system picks, or with `BENCH_PORTS=8300-8349` in the environment the next
 * free one of that range (for a machine whose ports are shared out; each call moves on, so servers started
 * one after the other do not race for the same port).
 */
let nextInRange = 0;
export async function freePort() {
  const range = /^(\d+)-(\d+)$/.exec(process.env.BENCH_PORTS ?? '');
  if (!range) return listenOn(0);
  const [low, high] = [Number(range[1]), Number(range[2])];
  for (let i = 0; i <= high - low; i++) {
    const port = low + ((nextInRange + i) % (high - low + 1));
    try {
      await listenOn(port);
      nextInRange = port - low + 1;
      return port;
    } catch {
      // taken; try the next
    }
  }
  throw new Error(`no free port in BENCH_PORTS=${process.env.BENCH_PORTS}`);
}

/** Resident and peak resident memory of a process, in MB (Linux /proc). */
export function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: NaN, peakMb: NaN };
  }
}

/** tsx from bench/node_modules, resolved here: the steps run with the repository as their working directory. */
const tsx = import.meta.resolve('tsx');

/** Runs a TypeScript step of the benchmark (`node --import tsx`), returning the JSON it reports last. */
export async function runStep(script, args, { log, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, path.join(root, 'bench', script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      log?.(String(d).trimEnd());
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${code}:\n${err.slice(-3000)}`));
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${script} reported no result:\n${out.slice(-2000)}\n${err.slice(-2000)}`));
      }
    });
  });
}

/**
 * Starts a process and waits until GET /healthz answers 200. Resolves with the child, its base URL and
 * the milliseconds from spawn to healthy.
 */
export async function startProcess({ command, args, cwd, env, port, logFile, timeoutMs = 120_000 }) {
  const out = fs.openSync(logFile, 'a');
  const t0 = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited = null;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited)
      throw new Error(
        `${args.join(' ')} exited (${JSON.stringify(exited)}) before it was healthy; see ${logFile}`,
      );
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`not healthy after ${timeoutMs} ms; see ${logFile}`);
    }
    await sleep(20);
  }
  const healthyMs = performance.now() - t0;
  return {
    child,
    url,
    healthyMs,
    pid: child.pid,
    async stop() {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/**
 * The app server as `npm start` runs it (its malloc arena limit and V8 flag, package.json's `start`; without npm
 * in between), on `port` or a free one.
 */
export async function startServer({
  dataDir,
  databaseUrl,
  webDist,
  env = {},
  logFile,
  viaNpmStart = false,
  port: givenPort,
  // As `npm start` runs it; other flags for comparing by hand (docs/decisions/015-memory.md).
  nodeFlags = ['--max-semi-space-size=2', '--liftoff-only'],
}) {
  const port = givenPort ?? (await freePort());
  const serverEnv = {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    ...(webDist ? { WEB_DIST_DIR: webDist } : {}),
    // The global limit (300 a minute per address) would answer most of a load test with 429.
    RATE_LIMIT_MAX: '1000000000',
    MALLOC_ARENA_MAX: '2',
    ...env,
  };
  return startProcess(
    viaNpmStart
      ? {
          command: process.execPath,
          args: [...nodeFlags, path.join(root, 'scripts/start.mjs')],
          cwd: root,
          env: serverEnv,
          port,
          logFile,
        }
      : {
          command: process.execPath,
          args: [...nodeFlags, 'src/server.ts'],
          cwd: serverDir,
          env: serverEnv,
          port,
          logFile,
        },
  );
}

/** The physical limit: a bare node:http server answering every request with the same precomputed bytes. */
export async function startBaseline({ bodyFile, contentType, logFile }) {
  const port = await freePort();
  return startProcess({
    command: process.execPath,
    args: [path.join(root, 'bench/baseline-server.mjs'), String(port), bodyFile, contentType],
    cwd: root,
    env: {},
    port,
    logFile,
  });
}

/** bench/floor-server.ts: Fastify plus one indexed query on the app's database, answering the same bytes. */
export async function startFloor({ bodyFile, contentType, dataDir, databaseUrl, logFile }) {
  const port = await freePort();
  return startProcess({
    command: process.execPath,
    args: [
      '--import',
      tsx,
      path.join(root, 'bench/floor-server.ts'),
      String(port),
      bodyFile,
      contentType,
      dataDir,
      ...(databaseUrl ? [databaseUrl] : []),
    ],
    cwd: root,
    env: {},
    port,
    logFile,
  });
}

/** Samples a process's memory while `fn` runs; returns fn's result and the highest resident size seen. */
export async function sampleMemory(pid, fn) {
  let maxRss = memoryOf(pid).rssMb;
  const timer = setInterval(() => {
    const { rssMb } = memoryOf(pid);
    if (rssMb > maxRss) maxRss = rssMb;
  }, 100);
  try {
    const result = await fn();
    return { result, maxRssMb: Math.max(maxRss, memoryOf(pid).rssMb) };
  } finally {
    clearInterval(timer);
  }
}
