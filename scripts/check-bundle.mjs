#!/usr/bin/env node
// The web bundle's size budgets (docs/performance.md), checked on a built dist with Vite's manifest:
//   - the entry of '/': the JavaScript index.html loads (entry chunk and everything it imports) ≤ 100 KB gzip;
//   - each route chunk (the chunk of every page src/app/router.tsx loads lazily) ≤ 50 KB gzip;
//   - the identity client (oidc-client-ts) and the carousel (swiper) are never part of the entry;
//   - the memorial page's first visit ≤ 150 KB gzip: the entry, the page's chunk and the chunks the page loads
//     on its own before the visitor scrolls or touches it (MEMORIAL_FIRST_VISIT; decision 019), with all they
//     import. The bench's pages section measures the same in the browser (Lighthouse's script requests).
// Also shown, not enforced: every other lazy chunk, and per chunk what a first visit downloads beyond the
// entry (the chunk with the shared chunks it imports, such as zod and the form library).
// Sizes: gzip level 9, 1 KB = 1024 bytes. Exits 1 when a budget is exceeded.
// Usage: node scripts/check-bundle.mjs [DIST_DIR] [--json]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const BUDGETS = { entryKb: 100, chunkKb: 50, memorialFirstVisitKb: 150 };
/**
 * What a first visit to a public memorial page loads: its route chunk and the sections it loads after hydrating
 * without the visitor doing anything (the funeral day's services). The memories, the candles, the carousel and
 * the sections further down wait for the visitor (lib/island.tsx, lib/use-in-view.ts, lib/when-near.tsx).
 */
export const MEMORIAL_FIRST_VISIT = [
  'src/features/memorial-page/memorial-page.tsx',
  'src/features/memorial-page/components/services-section.tsx',
];
/** Libraries that must stay out of the entry: loaded only when signing in / when their section is in view. */
// `text`: strings the minified library always contains (for builds without source maps).
const LAZY_LIBRARIES = [
  {
    name: 'oidc-client-ts',
    pattern: /node_modules\/oidc-client-ts\//,
    text: /signinRedirectCallback|WebStorageStateStore/,
  },
  { name: 'react-oidc-context', pattern: /node_modules\/react-oidc-context\//, text: /hasAuthParams/ },
  { name: 'swiper', pattern: /node_modules\/swiper\//, text: /swiper-wrapper/ },
  // Read only where a live stream opens (lib/event-stream.ts imports it on first use).
  { name: 'eventsource-parser', pattern: /node_modules\/eventsource-parser\//, text: /unknown-field/ },
];

/**
 * Libraries that must stay out of the memorial page's first visit: zod and the contract's schemas load with the
 * page's first API read (lib/memorials/schemas.ts); the first screen takes only the contract's zod-free helpers.
 */
const LAZY_ON_MEMORIAL_PAGE = [{ name: 'zod', pattern: /node_modules\/zod\//, text: /\$ZodType/ }];

const kb = (bytes) => bytes / 1024;
const routerFile = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/web/src/app/router.tsx',
);

/** Manifest keys of the pages the router loads lazily: `import('../features/x/y.tsx')` → `src/features/x/y.tsx`. */
function routeKeys() {
  const source = fs.readFileSync(routerFile, 'utf8');
  return new Set([...source.matchAll(/import\(\s*'\.\.\/([^']+)'\s*\)/g)].map((m) => `src/${m[1]}`));
}

export function measureBundle(distDir) {
  const manifestFile = path.join(distDir, '.vite/manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new Error(`${manifestFile} ontbreekt: bouw eerst de website (npm run build)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const gzipCache = new Map();
  const gz = (file) => {
    if (!gzipCache.has(file))
      gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length);
    return gzipCache.get(file);
  };
  /** A chunk and its static imports, transitively (what the browser must fetch before it runs). */
  const closure = (key, into = new Set()) => {
    if (into.has(key)) return into;
    into.add(key);
    for (const imp of manifest[key]?.imports ?? []) closure(imp, into);
    return into;
  };
  const sizeOf = (keys) =>
    [...keys]
      .filter((k) => manifest[k].file.endsWith('.js'))
      .reduce((sum, k) => sum + gz(manifest[k].file), 0);
  const cssOf = (keys) => [...new Set([...keys].flatMap((k) => manifest[k].css ?? []))];

  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error('geen entry in het manifest');
  const entry = closure(entryKey);
  const entryCss = cssOf(entry);
  const routes = routeKeys();
  const chunks = Object.keys(manifest)
    .filter((k) => manifest[k].isDynamicEntry)
    .map((k) => {
      const own = [...closure(k)].filter((x) => !entry.has(x));
      return {
        name: k,
        route: routes.has(k),
        file: manifest[k].file,
        gzipKb: kb(gz(manifest[k].file)),
        firstVisitKb: kb(sizeOf(own)),
        files: own.map((x) => manifest[x].file),
      };
    })
    .sort((a, b) => b.gzipKb - a.gzipKb);

  // Which libraries ended up in a set of chunks: from the source maps when present, else from the chunk text.
  const librariesIn = (keys, libraries) => {
    const js = [...keys].filter((k) => manifest[k].file.endsWith('.js'));
    const text = js.map((k) => fs.readFileSync(path.join(distDir, manifest[k].file), 'utf8')).join('\n');
    const sources = js.flatMap((k) => {
      const map = path.join(distDir, `${manifest[k].file}.map`);
      return fs.existsSync(map) ? JSON.parse(fs.readFileSync(map, 'utf8')).sources : [];
    });
    return libraries
      .filter((lib) => sources.some((s) => lib.pattern.test(s)) || lib.text.test(text))
      .map((l) => l.name);
  };
  const leaked = librariesIn(entry, LAZY_LIBRARIES);

  const memorial = new Set(entry);
  for (const k of MEMORIAL_FIRST_VISIT) {
    if (!manifest[k]) throw new Error(`${k} ontbreekt in het manifest (MEMORIAL_FIRST_VISIT bijwerken)`);
    closure(k, memorial);
  }

  return {
    memorialFirstVisit: {
      gzipKb: kb(sizeOf(memorial)),
      files: [...memorial].filter((k) => manifest[k].file.endsWith('.js')).length,
      leaked: librariesIn(memorial, LAZY_ON_MEMORIAL_PAGE),
    },
    entry: {
      gzipKb: kb(sizeOf(entry)),
      files: [...entry].map((k) => manifest[k].file),
      cssGzipKb: kb(entryCss.reduce((s, f) => s + gz(f), 0)),
    },
    chunks,
    leaked,
    budgets: BUDGETS,
  };
}

export function verdict(m) {
  const problems = [];
  if (m.entry.gzipKb > BUDGETS.entryKb)
    problems.push(`entry ${m.entry.gzipKb.toFixed(1)} KB > ${BUDGETS.entryKb} KB`);
  for (const c of m.chunks)
    if (c.route && c.gzipKb > BUDGETS.chunkKb)
      problems.push(`route chunk ${c.name} ${c.gzipKb.toFixed(1)} KB > ${BUDGETS.chunkKb} KB`);
  if (m.memorialFirstVisit.gzipKb > BUDGETS.memorialFirstVisitKb)
    problems.push(
      `memorial page first visit ${m.memorialFirstVisit.gzipKb.toFixed(1)} KB > ${BUDGETS.memorialFirstVisitKb} KB`,
    );
  for (const lib of m.leaked) problems.push(`${lib} is part of the entry (must load lazily)`);
  for (const lib of m.memorialFirstVisit.leaked)
    problems.push(`${lib} is part of the memorial page's first visit (must load lazily)`);
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dist = path.resolve(
    process.argv.slice(2).find((a) => !a.startsWith('--')) ??
      process.env.WEB_DIST_DIR ??
      path.join(root, 'apps/web/dist'),
  );
  const m = measureBundle(dist);
  const problems = verdict(m);
  if (process.argv.includes('--json')) console.log(JSON.stringify({ ...m, problems }, null, 2));
  else {
    console.log(`Bundelbudget (${path.relative(root, dist) || dist}), gzip:`);
    console.log(
      `  entry van '/': ${m.entry.gzipKb.toFixed(1)} KB (budget ${BUDGETS.entryKb} KB), CSS ${m.entry.cssGzipKb.toFixed(1)} KB`,
    );
    console.log(
      `  memorial page, first visit (entry, page, services; ${m.memorialFirstVisit.files} files): ` +
        `${m.memorialFirstVisit.gzipKb.toFixed(1)} KB (budget ${BUDGETS.memorialFirstVisitKb} KB)`,
    );
    for (const c of m.chunks)
      console.log(
        `  ${c.gzipKb > BUDGETS.chunkKb ? (c.route ? '✗' : '!') : '✓'} ${c.route ? 'route' : 'lazy '} ${c.name}: ` +
          `${c.gzipKb.toFixed(1)} KB${c.route ? ` (budget ${BUDGETS.chunkKb} KB)` : ''}, ` +
          `first visit beyond the entry ${c.firstVisitKb.toFixed(1)} KB`,
      );
    if (problems.length) console.error(`Budget overschreden:\n  - ${problems.join('\n  - ')}`);
    else console.log('Alle budgetten gehaald.');
  }
  process.exit(problems.length ? 1 : 0);
}
