#!/usr/bin/env node
// `npm run bench`: measures the app against baselines on this machine in the same run and writes the table
// into docs/performance.md (and the raw figures into bench/results/latest.json).
//   npm run bench                     every section but memory (about 10 minutes on 2 cores)
//   npm run bench -- --quick          shorter runs, fewer repetitions, smaller scaling set
//   npm run bench -- --only api,pages sections: bundle, api, scaling, uploads, start, pages, busy, memory, jobs
//   npm run bench -- --only busy      the memorial page on a busy phone against the same HTML without script,
//                                     5 Lighthouse runs each in turns, quiet and with one core kept busy
//   npm run bench -- --only jobs      an export alone and with 10 video renders queued (the job queue's lanes);
//                                     runs when asked, its figures are in docs/performance.md by hand
//   npm run bench -- --only memory    the process tree's memory; its long run (10,000 requests and 200 uploads per
//                                     database) takes longer than all the others together, so it runs when asked
//   npm run bench -- --web-dist DIR   use (or build into) DIR instead of apps/web/dist
// BENCH_PORTS=8300-8349: the servers it starts listen on ports of that range (default: any the system picks).
// PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) is used to create and
// drop the run's own databases.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchPackages } from './lib/install.mjs';

// Everything below imports the bench's own packages, so they are installed first.
ensureBenchPackages();
const { root } = await import('./lib/proc.mjs');
const { reachable } = await import('./lib/pg.mjs');
const { apiSection } = await import('./sections/api.mjs');
const { jobsSection, scalingSection, startSection, uploadsSection } = await import('./sections/server.mjs');
const { bundleSection, pagesSection } = await import('./sections/web.mjs');
const { busyPhoneSection } = await import('./sections/busy-phone.mjs');
const { memorySection } = await import('./sections/memory.mjs');
const { machine, writeReport } = await import('./report.mjs');

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = flag('quick');
const all = ['bundle', 'api', 'scaling', 'uploads', 'start', 'pages', 'busy', 'memory', 'jobs'];
const only = option('only')?.split(',') ?? all.filter((s) => !['memory', 'jobs', 'busy'].includes(s));
const unknown = only.filter((s) => !all.includes(s));
if (unknown.length) {
  console.error(`Onbekende onderdelen: ${unknown.join(', ')} (kies uit ${all.join(', ')})`);
  process.exit(2);
}
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const started = Date.now();
const log = (m) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-bench-'));
const resultsFile = path.join(root, 'bench/results/latest.json');
const previous = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : {};
const results = {
  ...previous,
  machine: machine(),
  quick,
  date: new Date().toISOString(),
  command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
};

if (only.some((s) => ['api', 'scaling', 'start', 'memory'].includes(s)) && !(await reachable(adminUrl))) {
  console.error(`De PostgreSQL-server op ${adminUrl} antwoordt niet (zet BENCH_DATABASE_URL).`);
  process.exit(2);
}

// The web build (prerendered pages) is what the bundle check and Lighthouse measure.
let webDist = option('web-dist');
const distDir = webDist ?? path.join(root, 'apps/web/dist');
if (only.includes('bundle') || only.includes('pages') || only.includes('busy')) {
  log(`web: building into ${path.relative(root, distDir) || distDir}…`);
  const args = [
    'run',
    'build',
    '-w',
    '@aandenken/web',
    ...(webDist ? ['--', '--outDir', path.resolve(webDist), '--emptyOutDir'] : []),
  ];
  const r = spawnSync('npm', args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    console.error('De webbuild is mislukt.');
    process.exit(1);
  }
}

const sections = {
  bundle: () => bundleSection({ distDir, log }),
  api: () => apiSection({ tmp, quick, adminUrl, log }),
  scaling: () => scalingSection({ tmp, quick, adminUrl, log }),
  uploads: () => uploadsSection({ tmp, quick, log }),
  start: () => startSection({ tmp, adminUrl, webDist, log }),
  pages: () => pagesSection({ tmp, quick, distDir, log }),
  busy: () => busyPhoneSection({ tmp, quick, distDir, log }),
  memory: () => memorySection({ tmp, quick, adminUrl, log }),
  jobs: () => jobsSection({ tmp, quick, log }),
};
let failed = false;
for (const name of all.filter((s) => only.includes(s))) {
  log(`${name}…`);
  try {
    results[name] = { ...(await sections[name]()), measuredAt: new Date().toISOString(), quick };
  } catch (err) {
    failed = true;
    console.error(`${name} failed:`, err);
    results[name] = {
      error: String(err?.message ?? err).slice(0, 2000),
      measuredAt: new Date().toISOString(),
    };
  }
}
results.seconds = (Date.now() - started) / 1000;
fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
fs.writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
await writeReport(results);
fs.rmSync(tmp, { recursive: true, force: true });
log(
  `done in ${results.seconds.toFixed(0)} s; table in docs/performance.md, figures in bench/results/latest.json`,
);
process.exit(failed ? 1 : 0);
