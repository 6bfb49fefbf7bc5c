// 3. Pages: the bundle budgets (scripts/check-bundle.mjs) and Lighthouse on the built, prerendered site; the
// "busy phone" variant runs Lighthouse's mobile profile on `/` and the memorial page again with a busy loop on
// one core beside it.
// Ports: BENCH_PAGES_PORT for the app server and BENCH_CHROME_PORT for Chromium's debugging port (default: free
// ones), for a machine where others use fixed ports.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { measureBundle, verdict } from '../../scripts/check-bundle.mjs';
import { sleep, startServer } from '../lib/proc.mjs';

/** The example memorial seeded on first start (packages/contract/src/examples.ts). */
const EXAMPLE_MEMORIAL_ID = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';

const PAGES = [
  { path: '/', text: 'Aandenken' },
  { path: '/prijzen', text: 'Prijzen' },
  { path: '/beslotenpagina', text: 'besloten pagina' },
  {
    path: `/memorial/${EXAMPLE_MEMORIAL_ID}`,
    label: 'example memorial, rendered on the server per request',
    text: 'Johanna de Vries',
  },
  {
    path: '/uitvaartondernemers',
    label: "the directory 'Vind een uitvaartondernemer', rendered on the server per request",
    text: 'Vind een uitvaartondernemer',
  },
];

/** The pages measured again with a busy loop beside them. */
const BUSY_PAGES = ['/', `/memorial/${EXAMPLE_MEMORIAL_ID}`];

/** A child process spinning on one core (a phone busy with something else) until the returned stop is called. */
export function startBusyLoop() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
}

const envPort = (name) => (process.env[name] ? Number(process.env[name]) : undefined);

export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function bundleSection({ distDir, log }) {
  const m = measureBundle(distDir);
  const problems = verdict(m);
  log(
    `bundle: entry ${m.entry.gzipKb.toFixed(1)} KB gzip; largest lazy chunk ${m.chunks[0]?.name} ${m.chunks[0]?.gzipKb.toFixed(1)} KB${problems.length ? `; over budget: ${problems.join('; ')}` : ''}`,
  );
  return { ...m, problems };
}

function summarise(lhr) {
  const audit = (id) => lhr.audits[id];
  const requests = audit('network-requests')?.details?.items ?? [];
  const origin = new URL(lhr.finalDisplayedUrl ?? lhr.finalUrl).origin;
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcpMs: audit('largest-contentful-paint').numericValue,
    fcpMs: audit('first-contentful-paint').numericValue,
    cls: audit('cumulative-layout-shift').numericValue,
    tbtMs: audit('total-blocking-time').numericValue,
    unsizedImages: audit('unsized-images')?.details?.items?.length ?? 0,
    externalFonts: requests.filter((r) => r.resourceType === 'Font' && new URL(r.url).origin !== origin)
      .length,
    transferKb: requests.reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1024,
    // The JavaScript a first visit downloads (transferred: compressed, with the response headers).
    scriptKb: scripts.reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1024,
    scriptRequests: scripts.length,
    // Where the main thread's time went (Lighthouse's main-thread breakdown, ms at the simulated slowdown).
    mainThread: Object.fromEntries(
      (audit('mainthread-work-breakdown')?.details?.items ?? []).map((i) => [
        i.group,
        Math.round(i.duration),
      ]),
    ),
    // Lighthouse's own measure of how fast this machine ran (higher is faster): TBT and the mobile score
    // depend on it, since the 4× slowdown is applied on top of the machine's speed.
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

async function lighthouseRuns(url, formFactor, runs, port) {
  const lhrs = [];
  let failures = 0;
  while (lhrs.length < runs) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (result?.lhr && !result.lhr.runtimeError) lhrs.push(result.lhr);
    // A trace that failed to record (NO_NAVSTART and the like) happens now and then on a busy machine.
    else if (++failures > 3)
      throw new Error(`Lighthouse ${url}: ${result?.lhr?.runtimeError?.message ?? 'no result'}`);
  }
  return summarise(computeMedianRun(lhrs));
}

/** CPU seconds a process has used so far (utime + stime from /proc), or NaN where /proc is missing. */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Waits until the process uses under 5 % of a core for 2 s (at most 3 minutes). */
export async function waitUntilIdle(pid) {
  const deadline = Date.now() + 180_000;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline && !Number.isNaN(before)) {
    await sleep(2000);
    const now = cpuSeconds(pid);
    if (now - before < 0.1) return;
    before = now;
  }
}

export async function pagesSection({ tmp, quick, distDir, log }) {
  const runs = quick ? 1 : 3;
  const loadAtStart = os.loadavg();
  const server = await startServer({
    port: envPort('BENCH_PAGES_PORT'),
    dataDir: path.join(tmp, 'pages-data'),
    webDist: distDir,
    env: { SEED_EXAMPLES: 'true' },
    logFile: path.join(tmp, 'server-pages.log'),
  });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
    port: envPort('BENCH_CHROME_PORT'),
  });
  try {
    // The example memorials are seeded in the background after the first start.
    for (let i = 0; ; i++) {
      const res = await fetch(`${server.url}/core/memorial/${EXAMPLE_MEMORIAL_ID}`);
      if (res.ok) break;
      if (i > 600) throw new Error('the example memorial did not appear');
      await sleep(200);
    }
    // ...and so are the other examples' photos (image variants in a background job): Lighthouse would time
    // that work as the page's. Wait until the server is quiet.
    await waitUntilIdle(server.pid);
    const results = [];
    for (const page of PAGES) {
      const url = server.url + page.path;
      const html = await (await fetch(url)).text();
      const root =
        /<div id="root">([\s\S]*?)<\/div>\s*<script/.exec(html)?.[1] ??
        /<div id="root">([\s\S]*)<\/body>/.exec(html)?.[1] ??
        '';
      const htmlHasContent = page.text === null ? null : root.includes('<h1') && root.includes(page.text);
      const mobile = await lighthouseRuns(url, 'mobile', runs, chrome.port);
      const desktop = await lighthouseRuns(url, 'desktop', runs, chrome.port);
      results.push({
        path: page.path.replace(EXAMPLE_MEMORIAL_ID, '{id}'),
        label: page.label,
        mobile,
        desktop,
        htmlHasContent,
        unsizedImages: Math.max(mobile.unsizedImages, desktop.unsizedImages),
        externalFonts: mobile.externalFonts,
      });
      log(
        `pages: ${page.path}: mobile ${mobile.score} (LCP ${(mobile.lcpMs / 1000).toFixed(2)} s, CLS ${mobile.cls.toFixed(3)}, TBT ${Math.round(mobile.tbtMs)} ms), desktop ${desktop.score}, HTML content ${htmlHasContent}`,
      );
    }
    // The busy phone: the same mobile runs with one core taken by a busy loop.
    const busy = [];
    for (const pagePath of BUSY_PAGES) {
      const stop = startBusyLoop();
      let mobile;
      try {
        await sleep(500);
        mobile = await lighthouseRuns(server.url + pagePath, 'mobile', runs, chrome.port);
      } finally {
        await stop();
      }
      busy.push({ path: pagePath.replace(EXAMPLE_MEMORIAL_ID, '{id}'), mobile });
      log(
        `pages (busy loop beside): ${pagePath}: mobile ${mobile.score} (TBT ${Math.round(mobile.tbtMs)} ms, LCP ${(mobile.lcpMs / 1000).toFixed(2)} s, script ${mobile.scriptKb.toFixed(1)} KB)`,
      );
    }
    const lighthouseVersion = JSON.parse(
      fs.readFileSync(new URL('../node_modules/lighthouse/package.json', import.meta.url), 'utf8'),
    ).version;
    const version = await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json();
    return {
      runs,
      desktopRuns: runs,
      lighthouse: lighthouseVersion,
      chromium: version.Browser,
      results,
      busy,
      // The machine is shared: its load average (1, 5, 15 minutes) when the section started and ended.
      loadAverage: {
        start: loadAtStart.map((l) => Number(l.toFixed(1))),
        end: os.loadavg().map((l) => Number(l.toFixed(1))),
      },
    };
  } finally {
    await chrome.kill();
    await server.stop();
  }
}
