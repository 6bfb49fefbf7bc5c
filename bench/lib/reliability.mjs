// Shared parts of the load and fault scripts (bench/load.mjs, db-outage.mjs, sigterm.mjs, kill9.mjs): the app
// process on a fixed port (8300-8309), a memorial to write to, writes at a steady rate with a ledger of what
// was acknowledged, and the check of that ledger against the database.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, serverDir, sleep, startProcess } from './proc.mjs';

export { sleep };
export const argValue = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

/** Runs bench/seed-reliability.ts (plain node: the server's own type stripping) and returns what it reports. */
export async function seed({ dataDir, databaseUrl, memories = 20, port }) {
  const args = [
    path.join(root, 'bench/seed-reliability.ts'),
    '--data-dir',
    dataDir,
    '--memories',
    String(memories),
  ];
  if (databaseUrl) args.push('--database-url', databaseUrl);
  // The owner's token names the server's issuer (its PUBLIC_URL).
  if (port) args.push('--public-url', `http://127.0.0.1:${port}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`seed-reliability.ts exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

/** The server as `npm start` runs it, on `port`, behind no proxy but trusting X-Forwarded-For (per-address limits). */
export async function startApp({ dataDir, databaseUrl, port, env = {}, logFile }) {
  // Something else answering on the port would be measured instead (its /healthz says 200).
  const busy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop what runs there or pass --port`);
  return startProcess({
    command: process.execPath,
    args: ['src/server.ts'],
    cwd: serverDir,
    port,
    logFile,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      RATE_LIMIT_MAX: '1000000000',
      TRUST_PROXY: 'true',
      SEED_EXAMPLES: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

let address = 0;
const nextAddress = () => {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

/** A small photo-like JPEG, made once (sharp from the server's packages). */
let photoBytes;
async function photo(kb) {
  if (photoBytes?.length >= kb * 1024) return photoBytes;
  const { default: sharp } = await import('sharp');
  const side = Math.ceil(Math.sqrt((kb * 1024) / 3));
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  photoBytes = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
  return photoBytes;
}

/**
 * One write as the web client makes it: an Idempotency-Key, and one retry with the same key after a network
 * error or a 503. Returns { status, id, code, retried, ms }.
 */
async function write(base, kind, seedInfo, n, o) {
  const key = crypto.randomUUID();
  const name = `${o.tag}-${kind}-${n}`;
  const started = performance.now();
  const send = async () => {
    const headers = { 'idempotency-key': key, 'x-forwarded-for': nextAddress() };
    let url;
    let body;
    if (kind === 'candle') {
      url = `${base}/core/candles/${seedInfo.memorialId}`;
      headers['content-type'] = 'application/json';
      body = JSON.stringify({ name });
    } else if (kind === 'memory') {
      url = `${base}/core/memories/concept`;
      headers['content-type'] = 'application/json';
      headers.authorization = seedInfo.authorization;
      body = JSON.stringify({ memorialId: seedInfo.memorialId, yearLabel: '1970', text: name });
    } else {
      url = `${base}/core/memorial-media`;
      headers.authorization = seedInfo.authorization;
      const fd = new FormData();
      fd.append('memorialId', seedInfo.memorialId);
      fd.append('caption', name);
      fd.append('media', new Blob([await photo(o.uploadKb ?? 200)], { type: 'image/jpeg' }), `${name}.jpg`);
      body = fd;
    }
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return {
        status: res.status,
        id: json?.id,
        code: json?.code,
        retryAfter: res.headers.get('retry-after'),
      };
    } catch (err) {
      return { status: 0, code: err.cause?.code ?? err.name };
    }
  };
  let r = await send();
  const first = r.status === 0 ? `error:${r.code}` : r.status;
  const firstMs = performance.now() - started;
  let retried = false;
  if (o.retry !== false && (r.status === 0 || r.status === 503)) {
    retried = true;
    await sleep(Math.min(Number(r.retryAfter) * 1000 || 1000, 3000));
    r = await send();
  }
  return {
    kind,
    name,
    key,
    ...r,
    first,
    firstMs,
    retried,
    started: Date.now() - (performance.now() - started),
    ms: performance.now() - started,
  };
}

/**
 * Writes at `perSecond` (spread over `kinds`) until `stop()`; every answer goes into the ledger.
 * Returns { ledger, stop(): Promise<ledger> }.
 */
export function steadyWrites(base, seedInfo, { perSecond, kinds = ['candle'], tag = 'w', uploadKb, retry }) {
  const ledger = [];
  const pending = new Set();
  let n = 0;
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    const kind = kinds[n % kinds.length];
    const p = write(base, kind, seedInfo, n++, { tag, uploadKb, retry }).then((r) => {
      r.at = Date.now();
      ledger.push(r);
      pending.delete(p);
    });
    pending.add(p);
  }, 1000 / perSecond);
  return {
    ledger,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all(pending);
      return ledger;
    },
  };
}

/** Statuses counted: { '201': 480, '503': 20, ... }; `first` counts the first tries, before the one retry. */
export const tally = (ledger, first = false) =>
  ledger.reduce((acc, r) => {
    const k = first ? r.first : r.status === 0 ? `error:${r.code}` : r.status;
    acc[k] = (acc[k] ?? 0) + 1;
    return acc;
  }, {});

/** Polls GET /healthz every 50 ms; `when(status, after)` resolves at the first answer with that status after `after`. */
export function healthWatch(base) {
  const seen = [];
  let on = true;
  (async () => {
    while (on) {
      const at = Date.now();
      const status = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) }).then(
        (r) => r.status,
        () => 0,
      );
      seen.push({ at, status });
      await sleep(50);
    }
  })();
  return {
    firstAfter: (after, match) => seen.find((s) => s.at >= after && match(s.status))?.at,
    stop: () => (on = false),
  };
}

/**
 * Every acknowledged (2xx) write is in the database, and none is there twice (names are unique per write).
 * `db` is the server's database opened after the run (apps/server/src/db/client.ts).
 */
export async function checkLedger(db, ledger) {
  const acked = ledger.filter((r) => r.status >= 200 && r.status < 300);
  const byKind = (k) => acked.filter((r) => r.kind === k);
  const found = async (table, column, rows) => {
    if (rows.length === 0) return { missing: 0, duplicates: 0 };
    const { rows: got } = await db.query(
      `SELECT ${column} AS name, count(*)::int AS n FROM ${table} WHERE ${column} = ANY($1::text[]) GROUP BY ${column}`,
      [rows.map((r) => r.name)],
    );
    const counts = new Map(got.map((g) => [g.name, g.n]));
    return {
      missing: rows.filter((r) => !counts.has(r.name)).length,
      duplicates: got.filter((g) => g.n > 1).length,
    };
  };
  const candles = await found('candles', 'name', byKind('candle'));
  const memories = await found('memories', 'body', byKind('memory'));
  const uploads = await found('media', 'caption', byKind('upload'));
  // Writes not acknowledged may or may not have happened; counted as duplicates only if they happened twice.
  const unacked = ledger.filter((r) => !(r.status >= 200 && r.status < 300) && r.kind === 'candle');
  const unackedTwice = (await found('candles', 'name', unacked)).duplicates;
  return {
    acknowledged: acked.length,
    missing: candles.missing + memories.missing + uploads.missing,
    duplicates: candles.duplicates + memories.duplicates + uploads.duplicates + unackedTwice,
    byKind: { candles, memories, uploads },
  };
}

/** The app's database, opened in this process once the server has stopped (PGlite) or alongside it (server). */
export async function openDb({ dataDir, databaseUrl }) {
  const { createDb } = await import(path.join(root, 'apps/server/src/db/client.ts'));
  return createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pg') });
}

export function writeResult(name, result) {
  const dir = path.join(root, 'bench/results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}
