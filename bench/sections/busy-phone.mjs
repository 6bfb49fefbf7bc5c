// The busy phone against "no script at all" (a variant of the pages section, `--only busy`): Lighthouse's mobile
// profile on the example memorial page (photos, memories, candles), quiet and with a busy loop on one core, the
// app and the same server's HTML with every script taken out, in turns, run after run; and `/` beside them.
// The script's cost is then a ratio within the same minutes on the same machine. Load average beside each run.
// Ports: BENCH_PAGES_PORT for the app server, BENCH_NOSCRIPT_PORT for the scriptless proxy, BENCH_CHROME_PORT
// for Chromium (default: free ones, or the BENCH_PORTS range).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort, sleep, startServer } from '../lib/proc.mjs';
import { CHROME_FLAGS, startBusyLoop, waitUntilIdle } from './web.mjs';

const EXAMPLE_MEMORIAL_ID = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const MEMORIAL = `/memorial/${EXAMPLE_MEMORIAL_ID}`;

const envPort = (name) => (process.env[name] ? Number(process.env[name]) : undefined);

/** The page as the server sends it, without the app: no script element, no module preload. */
export function withoutScript(html) {
  return html
    .replace(/<script\b[^>]*\bsrc=[^>]*>\s*<\/script>/gi, '')
    .replace(/<script\b[^>]*type="module"[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '');
}

/**
 * A proxy in front of the app that answers HTML without its scripts (compressed again as the app would) and
 * passes everything else through: the baseline a page can reach when no script runs at all.
 */
async function startScriptlessProxy(target) {
  const port = envPort('BENCH_NOSCRIPT_PORT') ?? (await freePort());
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    const isPage = (req.headers.accept ?? '').includes('text/html');
    if (isPage) headers['accept-encoding'] = 'identity';
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        if (!isPage || !type.startsWith('text/html')) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const parts = [];
        answer.on('data', (d) => parts.push(d));
        answer.on('end', () => {
          const body = Buffer.from(withoutScript(Buffer.concat(parts).toString('utf8')));
          const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
          const out = gzip ? zlib.gzipSync(body, { level: 6 }) : body;
          const h = { ...answer.headers };
          delete h['content-length'];
          delete h['content-encoding'];
          delete h['transfer-encoding'];
          if (gzip) h['content-encoding'] = 'gzip';
          h['content-length'] = String(out.length);
          res.writeHead(answer.statusCode ?? 502, h);
          res.end(out);
        });
      },
    );
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) };
}

function oneRun(lhr) {
  const a = lhr.audits;
  const tasks = a['long-tasks']?.details?.items ?? [];
  const breakdown = a['mainthread-work-breakdown']?.details?.items ?? [];
  const scripts = (a['network-requests']?.details?.items ?? []).filter((r) => r.resourceType === 'Script');
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    tbtMs: a['total-blocking-time'].numericValue,
    lcpMs: a['largest-contentful-paint'].numericValue,
    fcpMs: a['first-contentful-paint'].numericValue,
    // The longest main-thread task Lighthouse saw (simulated 4× slowdown).
    longestTaskMs: tasks.reduce((m, t) => Math.max(m, t.duration ?? 0), 0),
    longTasks: tasks.length,
    mainThreadMs: breakdown.reduce((s, i) => s + (i.duration ?? 0), 0),
    scriptEvaluationMs: breakdown.find((i) => i.group === 'scriptEvaluation')?.duration ?? 0,
    scriptKb: scripts.reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1024,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

const median = (values) => {
  const s = [...values].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Medians of each figure over the runs, with the spread (lowest–highest) of the blocking time and the load. */
function summary(runs) {
  const keys = Object.keys(runs[0].figures);
  const med = Object.fromEntries(
    keys.map((k) => [k, median(runs.map((r) => r.figures[k]).filter((v) => typeof v === 'number'))]),
  );
  const tbts = runs.map((r) => r.figures.tbtMs);
  const loads = runs.map((r) => r.load1);
  return {
    ...med,
    tbtMinMs: Math.min(...tbts),
    tbtMaxMs: Math.max(...tbts),
    load1Median: median(loads),
    load1Min: Math.min(...loads),
    load1Max: Math.max(...loads),
    runs,
  };
}

export const VARIANTS = [
  { id: 'memorial', label: 'memorial page, the app', path: MEMORIAL, scriptless: false },
  { id: 'memorial-noscript', label: 'memorial page, no script', path: MEMORIAL, scriptless: true },
  { id: 'home', label: '`/`, the app', path: '/', scriptless: false },
];

export async function busyPhoneSection({ tmp, quick, distDir, log, runs: givenRuns }) {
  const runs = givenRuns ?? (Number(process.env.BENCH_BUSY_RUNS) || (quick ? 1 : 5));
  const loadAtStart = os.loadavg();
  const server = await startServer({
    port: envPort('BENCH_PAGES_PORT'),
    dataDir: path.join(tmp, 'busy-data'),
    webDist: distDir,
    env: { SEED_EXAMPLES: 'true' },
    logFile: path.join(tmp, 'server-busy.log'),
  });
  const proxy = await startScriptlessProxy(server.url);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    port: envPort('BENCH_CHROME_PORT'),
  });
  try {
    for (let i = 0; ; i++) {
      const res = await fetch(`${server.url}/core/memorial/${EXAMPLE_MEMORIAL_ID}`);
      if (res.ok) break;
      if (i > 600) throw new Error('the example memorial did not appear');
      await sleep(200);
    }
    await waitUntilIdle(server.pid);
    const html = await (await fetch(proxy.url + MEMORIAL, { headers: { accept: 'text/html' } })).text();
    if (/<script\b[^>]*src=/i.test(html) || !html.includes('Johanna de Vries'))
      throw new Error('the scriptless baseline still has a script, or lost the page');
    // Once each, unmeasured: the server renders and compresses a page on its first request.
    for (const v of VARIANTS) await fetch((v.scriptless ? proxy.url : server.url) + v.path);

    const conditions = {};
    for (const condition of ['quiet', 'busy']) {
      const stop = condition === 'busy' ? startBusyLoop() : null;
      const byVariant = Object.fromEntries(VARIANTS.map((v) => [v.id, []]));
      try {
        if (stop) await sleep(500);
        let failures = 0;
        // In turns: the app, the baseline and `/`, run after run, so each ratio compares the same minutes.
        for (let i = 0; i < runs; i++) {
          for (const v of VARIANTS) {
            const url = (v.scriptless ? proxy.url : server.url) + v.path;
            const load1 = Number(os.loadavg()[0].toFixed(2));
            const result = await lighthouse(url, {
              port: chrome.port,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance'],
            });
            if (!result?.lhr || result.lhr.runtimeError) {
              if (++failures > 4) throw new Error(`Lighthouse ${url}: no result`);
              continue;
            }
            const figures = oneRun(result.lhr);
            byVariant[v.id].push({ load1, figures });
            log(
              `busy phone (${condition}) ${v.label} #${i + 1}: TBT ${Math.round(figures.tbtMs)} ms, score ${figures.score}, LCP ${(figures.lcpMs / 1000).toFixed(2)} s, longest task ${Math.round(figures.longestTaskMs)} ms, load ${load1}`,
            );
          }
        }
      } finally {
        await stop?.();
      }
      conditions[condition] = Object.fromEntries(
        Object.entries(byVariant)
          .filter(([, r]) => r.length)
          .map(([k, r]) => [k, summary(r)]),
      );
    }
    const version = await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json();
    return {
      runs,
      chromium: version.Browser,
      variants: VARIANTS.map(({ id, label }) => ({ id, label })),
      conditions,
      loadAverage: {
        start: loadAtStart.map((l) => Number(l.toFixed(1))),
        end: os.loadavg().map((l) => Number(l.toFixed(1))),
      },
    };
  } finally {
    await chrome.kill();
    await proxy.stop();
    await server.stop();
  }
}
