// Turns bench/results/latest.json into the tables of docs/performance.md (between the bench markers).
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';

const START = '<!-- bench:start (written by npm run bench; do not edit by hand) -->';
const END = '<!-- bench:end -->';

export function machine() {
  let postgres = 'unknown';
  try {
    postgres = execSync('psql --version', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    // the server's version is not essential to the table
  }
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    postgres,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  };
}

const n0 = (x) => (x == null || Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const n1 = (x) => (x == null || Number.isNaN(x) ? '–' : x.toFixed(1));
const n2 = (x) => (x == null || Number.isNaN(x) ? '–' : x.toFixed(2));
const pct = (x) => (x == null ? '–' : `${(x * 100).toFixed(1)} %`);
const ok = (pass) => (pass == null ? '' : pass ? '✅' : '❌');
const when = (section) =>
  section?.measuredAt
    ? ` (measured ${section.measuredAt.slice(0, 16).replace('T', ' ')} UTC${section.quick ? ', --quick' : ''})`
    : '';
const failed = (section) =>
  section?.error ? `\n**This section failed in the last run:** \`${section.error.split('\n')[0]}\`\n` : '';

function apiTable(api) {
  if (!api?.runs) return `_Not measured yet._${failed(api)}`;
  const rows = api.runs.map((r) => {
    let target = '';
    let pass = null;
    if (r.target === 'memorial' && r.cache && r.db === 'postgres') {
      target = '≥ 40 %';
      pass = r.ratio >= 0.4;
    } else if (r.target === 'wall' && !r.cache) {
      target = '≥ 10 %';
      pass = r.ratio >= 0.1;
    }
    const p99 = r.app.p99Ms < 50;
    const clean = r.app.errors === 0 && r.app.non2xx === 0;
    return `| ${r.db === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${r.target === 'memorial' ? '`GET /core/memorial/{id}`' : 'wall, first page'} | ${r.cache ? 'cached' : 'uncached'} | ${n0(r.app.rps)} | ${n0(r.baseline?.rps)} | ${pct(r.ratio)} ${target ? `(target ${target}) ${ok(pass)}` : ''} | ${r.app.p50Ms} / ${r.app.p99Ms} ${ok(p99)}${r.baseline ? ` (baseline ${r.baseline.p99Ms})` : ''} | ${r.app.errors} / ${r.app.non2xx} ${ok(clean)} | ${n0(r.bytes)} |`;
  });
  return [
    'Each row: after a warm-up, the app and the bare baseline (the same bytes from `node:http`) are loaded in turns, 50 connections, ' +
      (api.rounds ? `${api.rounds} rounds of ${api.seconds} s each` : 'in rounds') +
      '; the ratio is the median round’s, the request rates and latencies are medians over the rounds. The machine is shared: a baseline alone swings by a third from one minute to the next, so a ratio is only taken between loads seconds apart.',
    '',
    `Seeded: ${api.seed.memories} published memories and ${api.seed.photos} photos (${api.seed.variants} variants) on one public memorial, through the real routes and media pipeline.`,
    '',
    '| database | request | response cache | app req/s | baseline req/s | app / baseline | latency p50 / p99 ms (target p99 < 50) | errors (timeouts) / non-2xx | bytes |',
    '|---|---|---|---:|---:|---|---|---|---:|',
    ...rows,
    ...floorTable(api),
    ...splitTable(api),
  ].join('\n');
}

/** What the framework and one indexed query on each database reach, and the uncached wall against that. */
function floorTable(api) {
  if (!api.floors) return [];
  const rows = Object.entries(api.floors).map(([db, floor]) => {
    const wall = api.runs.find((r) => r.db === db && r.target === 'wall' && !r.cache);
    return `| ${db === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${n0(floor.rps)} | ${pct(floor.ratio)} | ${floor.p50Ms} / ${floor.p99Ms} | ${n0(wall?.app.rps)} | ${pct(wall && floor.ratio ? wall.ratio / floor.ratio : null)} |`;
  });
  return [
    '',
    'The floor on each database (`bench/floor-server.ts`): Fastify answering the wall’s bytes after one indexed one-row query, nothing else. It shows what the framework and the database driver alone leave of the bare baseline, and so what an uncached answer can reach at most.',
    '',
    '| database | floor req/s | floor / baseline | floor p50 / p99 ms | wall uncached req/s | wall uncached / floor |',
    '|---|---:|---|---|---:|---|',
    ...rows,
  ];
}

/**
 * The uncached wall's request split into the database client's part and the rest; on PGlite the database's
 * part bounds the throughput of any arrangement (it runs one statement at a time).
 */
function splitTable(api) {
  if (!api.splits) return [];
  const rows = Object.entries(api.splits).map(([db, split]) => {
    const wall = api.runs.find((r) => r.db === db && r.target === 'wall' && !r.cache);
    const ceiling =
      db === 'pglite'
        ? `${n0(split.dbCeilingRps)} (${pct(wall ? split.dbCeilingRps / wall.baseline.rps : null)} of the baseline)`
        : 'none (statements run side by side)';
    return `| ${db === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${n0(split.requestUs)} | ${n0(split.dbUs)} | ${n0(split.appUs)} | ${ceiling} |`;
  });
  return [
    '',
    'The uncached wall split (`bench/wall-split.ts`): one request at a time through the real route in-process (no network), and the part of each spent in the database client’s calls; of one-second stretches, the one with the least database time (the most generous figure). PGlite runs one statement at a time in one session, so one second divided by its part is the most wall pages a second that PGlite could answer however the process were arranged (a worker thread of its own included); the PostgreSQL server runs the pool’s statements side by side.',
    '',
    '| database | µs a request | of which the database client | the rest (route, cards, JSON) | most wall pages a second on this database |',
    '|---|---:|---:|---:|---|',
    ...rows,
  ];
}

/** Lighthouse's measure of the machine's speed during the mobile runs (its `benchmarkIndex`), median. */
function benchmarkNote(pages) {
  const values = pages.results.map((p) => p.mobile.benchmarkIndex).filter((v) => typeof v === 'number');
  if (values.length === 0) return '';
  return ` Lighthouse's measure of this machine's speed in these runs (\`benchmarkIndex\`, higher is faster): ${n0(median(values))}; the mobile TBT and score scale with it, since the 4× slowdown comes on top.`;
}

function scalingTable(scaling) {
  if (!Array.isArray(scaling?.runs)) return `_Not measured yet._${failed(scaling)}`;
  const rows = scaling.runs.flatMap((run) =>
    run.results.map(
      (r) =>
        `| ${run.db === 'postgres' ? 'PostgreSQL' : 'PGlite'} | ${n0(r.memories)} | ${n2(r.first.medianMs)} | ${n2(r.middle.medianMs)} | ${n2(r.last.medianMs)} | ${r.statementsBySize[1]} / ${r.statementsBySize[20]} / ${r.statementsBySize[50]} |`,
    ),
  );
  return [
    '| database | memories on the memorial | first page ms | page in the middle ms | last page ms | SQL statements per request at 1 / 20 / 50 per page |',
    '|---|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
}

function pagesTable(pages, bundle) {
  const out = [];
  if (bundle?.entry) {
    const route = bundle.chunks.filter((c) => c.route !== false)[0];
    const lazy = bundle.chunks.filter((c) => c.route === false)[0];
    out.push(
      `Bundle (gzip level 9, 1 KB = 1024 bytes): entry of \`/\` **${n1(bundle.entry.gzipKb)} KB** (budget 100) ${ok(bundle.entry.gzipKb <= 100)}, ` +
        `largest route chunk ${route ? `\`${route.name.replace(/^src\//, '')}\` **${n1(route.gzipKb)} KB**` : '–'} (budget 50) ${ok(!route || route.gzipKb <= 50)}, ` +
        `CSS ${n1(bundle.entry.cssGzipKb)} KB; identity client and carousel outside the entry ${ok(bundle.leaked.length === 0)}${bundle.leaked.length ? ` (in the entry: ${bundle.leaked.join(', ')})` : ''}. ` +
        (lazy
          ? `Largest other lazy chunk (no budget): \`${lazy.name.replace(/^src\//, '')}\` ${n1(lazy.gzipKb)} KB. `
          : '') +
        `What a first visit to a route downloads beyond the entry: ${bundle.chunks
          .filter((c) => c.route !== false && c.firstVisitKb != null)
          .sort((a, b) => b.firstVisitKb - a.firstVisitKb)
          .slice(0, 6)
          .map(
            (c) => `${c.name.replace(/^src\/features\//, '').replace(/\.tsx$/, '')} ${n1(c.firstVisitKb)} KB`,
          )
          .join(', ')} (largest first).`,
      '',
    );
    if (bundle.memorialFirstVisit)
      out.push(
        `The memorial page's first visit (the entry, the page's chunk and what it loads before the visitor scrolls or touches it; \`MEMORIAL_FIRST_VISIT\` in scripts/check-bundle.mjs, decision 019): **${n1(bundle.memorialFirstVisit.gzipKb)} KB** gzip in ${bundle.memorialFirstVisit.files} files (budget 150) ${ok(bundle.memorialFirstVisit.gzipKb <= 150)}.`,
        '',
      );
  } else out.push(`Bundle: _not measured yet._${failed(bundle)}`, '');
  if (!pages?.results) return [...out, `Lighthouse: _not measured yet._${failed(pages)}`].join('\n');
  out.push(
    `Lighthouse ${pages.lighthouse}, mobile (emulated Moto G Power, simulated slow 4G and 4× CPU slowdown) ${pages.runs} run(s) per page, median; desktop ${pages.desktopRuns ?? pages.runs} run(s); Chromium ${pages.chromium}.` +
      benchmarkNote(pages),
    '',
    '| page | mobile score (≥ 95) | desktop score (100) | LCP mobile (< 1.8 s) | CLS (< 0.05) | TBT mobile (< 150 ms) | content in the HTML | images sized | fonts |',
    '|---|---|---|---|---|---|---|---|---|',
    ...pages.results.map(
      (p) =>
        `| \`${p.path}\`${p.label ? ` (${p.label})` : ''} | ${p.mobile.score} ${ok(p.mobile.score >= 95)} | ${p.desktop.score} ${ok(p.desktop.score >= 100)} | ${(p.mobile.lcpMs / 1000).toFixed(2)} s ${ok(p.mobile.lcpMs < 1800)} | ${p.mobile.cls.toFixed(3)} ${ok(p.mobile.cls < 0.05)} | ${Math.round(p.mobile.tbtMs)} ms ${ok(p.mobile.tbtMs < 150)} | ${p.htmlHasContent === null ? 'from the API (not prerendered)' : p.htmlHasContent ? 'yes' : 'no'} ${ok(p.htmlHasContent)} | ${p.unsizedImages === 0 ? 'yes' : `${p.unsizedImages} unsized`} ${ok(p.unsizedImages === 0)} | ${p.externalFonts === 0 ? 'self-hosted' : `${p.externalFonts} external`} ${ok(p.externalFonts === 0)} |`,
    ),
  );
  const memorial = pages.results.find((p) => p.path.startsWith('/memorial/'));
  if (memorial?.mobile.scriptKb != null)
    out.push(
      '',
      `JavaScript of a first visit to the memorial page as Lighthouse's mobile run downloaded it: **${n1(memorial.mobile.scriptKb)} KB** transferred in ${memorial.mobile.scriptRequests} requests (compressed, plus ~1.3 KB of response headers per request over HTTP/1.1; the files' gzip content is the first-visit figure of the bundle above, whose budget is 150 KB).`,
    );
  if (Array.isArray(pages.busy) && pages.busy.length) {
    const quiet = (path) => pages.results.find((p) => p.path === path)?.mobile;
    const load = pages.loadAverage
      ? ` Load average (1 / 5 / 15 min) at the section's start ${pages.loadAverage.start.join(' / ')}, at its end ${pages.loadAverage.end.join(' / ')}.`
      : '';
    const thread = (m) =>
      m?.mainThread
        ? Object.entries(m.mainThread)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([k, v]) => `${k} ${n0(v)}`)
            .join(', ')
        : '–';
    out.push(
      '',
      `The busy phone: the same mobile runs (${pages.runs} per page, median) with a busy loop on one core beside them (a child process spinning), next to the quiet figures above.${load}`,
      '',
      '| page | mobile score quiet / busy (≥ 95) | TBT mobile quiet / busy (< 150 ms) | LCP mobile quiet / busy | main thread when busy, largest (ms) |',
      '|---|---|---|---|---|',
      ...pages.busy.map((b) => {
        const q = quiet(b.path);
        return `| \`${b.path}\` | ${q ? q.score : '–'} / ${b.mobile.score} ${ok(b.mobile.score >= 95)} | ${q ? `${Math.round(q.tbtMs)} ms` : '–'} / ${Math.round(b.mobile.tbtMs)} ms ${ok(b.mobile.tbtMs < 150)} | ${q ? `${(q.lcpMs / 1000).toFixed(2)} s` : '–'} / ${(b.mobile.lcpMs / 1000).toFixed(2)} s | ${thread(b.mobile)} |`;
      }),
    );
  }
  return out.join('\n');
}

function busyTable(b) {
  if (!b?.conditions) return `_Not measured yet (\`npm run bench -- --only busy\`)._${failed(b)}`;
  const rows = [];
  for (const [condition, variants] of Object.entries(b.conditions)) {
    const app = variants.memorial;
    const bare = variants['memorial-noscript'];
    for (const [id, v] of Object.entries(variants)) {
      const label = b.variants.find((x) => x.id === id)?.label ?? id;
      const ratio =
        id === 'memorial' && bare
          ? ` (${n1(app.mainThreadMs / Math.max(1, bare.mainThreadMs))}× the main thread of no script)`
          : '';
      const target = id !== 'memorial' ? '' : ` ${ok(v.tbtMs < (condition === 'busy' ? 150 : 100))}`;
      rows.push(
        `| ${condition} | ${label} | ${n0(v.tbtMs)} ms (${n0(v.tbtMinMs)}–${n0(v.tbtMaxMs)})${target} | ${n0(v.score)} | ${(v.lcpMs / 1000).toFixed(2)} s | ${n0(v.longestTaskMs)} ms | ${n0(v.mainThreadMs)} ms${ratio} | ${n0(v.scriptEvaluationMs)} ms | ${n1(v.scriptKb)} KB | ${n1(v.load1Median)} (${n1(v.load1Min)}–${n1(v.load1Max)}) |`,
      );
    }
  }
  return [
    `Lighthouse mobile (simulated slow 4G and 4× CPU slowdown), ${b.runs} runs per row, the rows of a condition in turns (the app, the same HTML with every script taken out by a proxy, \`/\`), run after run; "busy": a busy loop on one core beside (a child process spinning). Medians, the blocking time's spread in brackets; the load average (1 min) read before each run. Chromium ${b.chromium}. Load average (1 / 5 / 15 min) at the start ${b.loadAverage.start.join(' / ')}, at the end ${b.loadAverage.end.join(' / ')}.`,
    '',
    '| condition | page | TBT median (spread) | score | LCP | longest task | main thread | script evaluation | script transferred | load average (1 min) median (spread) |',
    '|---|---|---|---:|---:|---:|---|---:|---:|---|',
    ...rows,
  ].join('\n');
}

function uploadsTable(u) {
  if (!u?.app) return `_Not measured yet._${failed(u)}`;
  return [
    `A ${u.image.width} × ${u.image.height} JPEG (${n1(u.image.bytes / 1024 / 1024)} MB), median of the runs.`,
    '',
    '| | upload answered | all variants ready | peak memory of the process |',
    '|---|---:|---:|---:|',
    `| the app (\`POST /core/memory/medias\`, PGlite, job queue in-process; its own process, the image process is in section 6) | ${n0(u.app.answerMs)} ms | ${n0(u.app.fullMs)} ms | ${n0(u.app.peakMb)} MB (${n0(u.app.restMb)} MB before) |`,
    `| floor: \`sharp\` alone on the same file (web-sized WebP; then every variant) | ${n0(u.floor.answerMs)} ms | ${n0(u.floor.answerMs + u.floor.variantsMs)} ms | ${n0(u.floor.peakMb)} MB (${n0(u.floor.restMb)} MB before) |`,
  ].join('\n');
}

function startTable(start, api) {
  const out = [];
  if (start?.results) {
    out.push(
      `Spawned as ${start.viaNpmStart ? '`npm start` (scripts/start.mjs, web already built)' : 'what `npm start` runs (`node src/server.ts`, web already built)'}, until \`GET /healthz\` answers 200; memory 3 s later (example memorials seeding in the background on a first start).`,
      '',
      '| case | to a healthy /healthz | resident memory at rest |',
      '|---|---:|---:|',
      ...start.results.map((r) => `| ${r.name} | ${n0(r.healthyMs)} ms | ${n0(r.restMb)} MB |`),
    );
  } else out.push(`_Not measured yet._${failed(start)}`);
  if (api?.runs) {
    out.push(
      '',
      '| server under the load of item 1 | at rest (before the runs) | highest resident memory during the runs |',
      '|---|---:|---:|',
    );
    for (const db of ['pglite', 'postgres']) {
      for (const cache of [true, false]) {
        const runs = api.runs.filter((r) => r.db === db && r.cache === cache);
        if (!runs.length) continue;
        out.push(
          `| ${db === 'postgres' ? 'PostgreSQL' : 'PGlite'}, cache ${cache ? 'on' : 'off'} | ${n0(runs[0].restMb)} MB | ${n0(Math.max(...runs.map((r) => r.loadMaxRssMb)))} MB |`,
        );
      }
    }
  }
  return out.join('\n');
}

const dbName = (db) => (db === 'postgres' ? 'PostgreSQL' : 'PGlite');

function memoryTable(mem) {
  if (!mem?.runs) return `_Not measured yet._${failed(mem)}`;
  const limit = { postgres: 200, pglite: 300 };
  const rest = (x) => `${n0(x.rssMb)} MB (PSS ${n0(x.pssMb)})${x.idle === false ? ', not idle' : ''}`;
  const out = [
    `The whole process tree of ${mem.launcher === 'node' ? '`node src/server.ts`' : '`npm start`'} (npm, the server, the image process while one runs; npm's shell is replaced by the server through \`exec\`): the sum of each process's resident memory (RSS; pages shared between the processes, such as Node's own binary, count once per process) and of their proportional shares (PSS, each shared page divided among its users), from \`/proc\`. At rest: once the tree has used less than 3 % of one core for 2 s (on a first start the example memorials and their photos are made by then).${
      Object.keys(mem.env ?? {}).length
        ? ` Environment: ${Object.entries(mem.env)
            .map(([k, v]) => `\`${k}=${v}\``)
            .join(' ')}.`
        : ''
    }`,
    '',
    '| database | at rest after a first start | after a restart | target |',
    '|---|---:|---:|---|',
    ...mem.runs.map(
      (r) =>
        `| ${dbName(r.db)} | ${rest(r.first)} | ${rest(r.restart)} | ≤ ${limit[r.db]} MB ${ok(Math.max(r.first.rssMb, r.restart.rssMb) <= limit[r.db])} |`,
    ),
    '',
    `Under load, after a third start: ${n0(mem.counts.requests)} requests (16 at a time: a memorial, its wall, the home page), then ${mem.counts.uploads} uploads of a ${mem.image.width} × ${mem.image.height} JPEG (${n1(mem.image.bytes / 1024 / 1024)} MB) one after the other, each until its background variants are made. \`sharp\` alone on the same file in a process of its own (what the upload and its background job render), median of 3: **${n0(mem.sharpAlone.peakMb)} MB** at its peak.`,
    '',
    '| database | at rest before | peak under the requests | at rest after them | first upload: peak (above sharp alone, target ≤ 200) | highest peak of the uploads | at rest after the uploads (growth since before) |',
    '|---|---:|---:|---:|---|---:|---|',
    ...mem.runs.map((r) => {
      const over = r.firstUploadPeakMb - mem.sharpAlone.peakMb;
      const growth = r.afterAll.rssMb - r.beforeLoad.rssMb;
      return `| ${dbName(r.db)} | ${n0(r.beforeLoad.rssMb)} MB | ${n0(r.load.peakMb)} MB | ${n0(r.load.afterMb)} MB | ${n0(r.firstUploadPeakMb)} MB (+${n0(over)}) ${ok(over <= 200)} | ${n0(r.uploads.peakMb)} MB | ${n0(r.afterAll.rssMb)} MB (${growth >= 0 ? '+' : ''}${n0(growth)}) |`;
    }),
    '',
    'Each process at rest after a restart and after the uploads (`/proc/<pid>/smaps_rollup`): anonymous memory is what the process allocated (V8’s heap, malloc’s arenas, PGlite’s WebAssembly memory); file is mapped files (Node’s binary, shared libraries).',
    '',
    '| database | when | process | RSS | PSS | anonymous | file |',
    '|---|---|---|---:|---:|---:|---:|',
  ];
  for (const r of mem.runs)
    for (const [when, m] of [
      ['restart', r.restart],
      ['after the uploads', r.afterAll],
    ])
      for (const p of m.processes)
        out.push(
          `| ${dbName(r.db)} | ${when} | \`${p.command.slice(0, 80)}\` | ${n0(p.rssMb)} MB | ${n0(p.pssMb)} MB | ${n0(p.anonMb)} MB | ${n0(p.fileMb)} MB |`,
        );
  return out.join('\n');
}

export function renderTables(r) {
  const m = r.machine ?? machine();
  return [
    START,
    `Machine: ${m.cpus} CPUs (${m.cpuModel}), ${n1(m.memoryGb)} GB memory, Node ${m.node}, ${m.postgres}; load average at the end ${m.loadAverage?.join(' / ')} (shared machine).`,
    `Last run: ${r.date?.slice(0, 16).replace('T', ' ')} UTC, \`${r.command}\`, ${n0(r.seconds)} s.`,
    '',
    `### 1. API against the bare node:http baseline${when(r.api)}`,
    '',
    apiTable(r.api),
    '',
    `### 2. The wall at 100, 10,000 and 100,000 memories (response cache off)${when(r.scaling)}`,
    '',
    scalingTable(r.scaling),
    '',
    `### 3. Pages${when(r.pages)}`,
    '',
    pagesTable(r.pages, r.bundle),
    '',
    `#### The busy phone against no script${when(r.busy)}`,
    '',
    busyTable(r.busy),
    '',
    `### 4. Uploads${when(r.uploads)}`,
    '',
    uploadsTable(r.uploads),
    '',
    `### 5. Start and memory${when(r.start)}`,
    '',
    startTable(r.start, r.api),
    '',
    `### 6. Memory of the process tree${when(r.memory)}`,
    '',
    memoryTable(r.memory),
    END,
  ].join('\n');
}

export async function writeReport(results) {
  const file = path.join(root, 'docs/performance.md');
  const doc = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : `# Performance\n\n## Results\n\n${START}\n${END}\n`;
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  const tables = renderTables(results);
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + tables + doc.slice(end + END.length)
      : `${doc.trimEnd()}\n\n${tables}\n`;
  // Through Prettier, as every file of the repository (CI checks the formatting).
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(file, await prettier.format(next, { ...options, filepath: file }));
}
