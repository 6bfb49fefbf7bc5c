#!/usr/bin/env node
// `npm test`: unit and API tests (Vitest; PostgreSQL server too when TEST_DATABASE_URL is set), then the
// web build and the end-to-end tests in Chromium. Prints each runner's counts and one closing line
// "Total: N passed, N failed", after the names of the tests that failed and of those that passed only on a
// retry (CI); exits non-zero on any failure.
//   npm test                 everything
//   npm test -- unit         Vitest only (server, contract and web)
//   npm test -- e2e          the web build, its bundle budget and every end-to-end test
//   npm test -- database     what depends on the database: the server suites (but the fuzz suite) and the
//                            end-to-end tests tagged @database, on the existing web build (built first only
//                            when there is none)
//   npm test -- quick        the edit loop's subset, at most 3 minutes here: types (tsc -b), lint and format of
//                            the files changed since the last commit, then the Vitest files that import what
//                            changed, but the slow server suites (vitest.config.ts `slowSuites`); no build, no
//                            browser. CI runs everything.
//   npm test -- database:unit, npm test -- database:e2e
//                            the two halves of `database` on their own
// TEST_VITEST_WORKERS=N sets Vitest's worker processes (default: one per core; Vitest's own default leaves a
// core idle, and these suites wait on sockets and child processes often enough to use it).
// E2E_WORKERS=N sets the end-to-end servers, a Playwright worker each (default 1, CI 2: e2e/playwright.config.ts).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scopes = ['unit', 'e2e', 'database', 'database:unit', 'database:e2e', 'quick'];
const only = process.argv[2];
if (only && !scopes.includes(only)) {
  console.error(`Onbekend onderdeel '${only}': kies uit ${scopes.join(', ')}`);
  process.exit(2);
}
const database = only?.startsWith('database') ?? false;
const quick = only === 'quick';
const runVitest = !only || quick || only === 'unit' || only === 'database' || only === 'database:unit';
const runE2e = !only || only === 'e2e' || only === 'database' || only === 'database:e2e';
// Each scope its own reports, so two runs side by side do not overwrite each other's.
const out = path.join(root, '.test-output', (only ?? 'all').replace(':', '-'));
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const distManifest = path.join(root, 'apps/web/dist/.vite/manifest.json');

const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const results = [];
let failedStage = false;
/** What failed (and what passed only on a retry), named in the summary: CI keeps only the output's tail. */
const failures = [];
const flaky = [];

/** The first line of an error, to follow a failed test's name (without the terminal's colours). */
const firstLine = (message) =>
  message ? ` — ${stripVTControlCharacters(message).split('\n')[0].slice(0, 240)}` : '';

/** Playwright's JSON report: its suites nest; each spec's tests are one per project. */
function walkPlaywright(suite, file = suite.file) {
  for (const child of suite.suites ?? []) walkPlaywright(child, child.file ?? file);
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const name = `${test.projectName ? `[${test.projectName}] ` : ''}${spec.file ?? file}:${spec.line} › ${spec.title}`;
      const error = test.results?.at(-1)?.error?.message;
      if (test.status === 'unexpected') failures.push(`playwright ${name}${firstLine(error)}`);
      if (test.status === 'flaky')
        flaky.push(`playwright ${name}${firstLine(test.results?.[0]?.error?.message)}`);
    }
  }
}

/** The files changed since the last commit (staged, unstaged and new), that still exist. */
function changedFiles() {
  const git = (args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout ?? '';
  const names = [
    ...git(['diff', '--name-only', 'HEAD']).split('\n'),
    ...git(['ls-files', '--others', '--exclude-standard']).split('\n'),
  ];
  return [...new Set(names.filter((f) => f && fs.existsSync(path.join(root, f))))];
}

if (quick) {
  // Types of the whole project (incremental: tsc -b keeps its build info) beside lint and format of what
  // changed, on the two cores; then the fast tests.
  const changed = changedFiles();
  const linted = changed.filter((f) => /\.(ts|tsx|js|mjs|cjs)$/.test(f));
  const checks = [
    { name: 'typecheck (tsc -b)', cmd: 'npx', args: ['tsc', '-b'] },
    ...(linted.length
      ? [
          {
            name: `lint (${linted.length} changed)`,
            cmd: 'npx',
            args: ['eslint', '--no-warn-ignored', ...linted],
          },
        ]
      : []),
    ...(changed.length
      ? [
          {
            name: `format (${changed.length} changed)`,
            cmd: 'npx',
            args: ['prettier', '--check', '--ignore-unknown', ...changed],
          },
        ]
      : []),
  ];
  const ran = await Promise.all(
    checks.map(
      (c) =>
        new Promise((resolve) => {
          const child = spawn(c.cmd, c.args, { cwd: root, env: process.env });
          let output = '';
          child.stdout.on('data', (d) => (output += d));
          child.stderr.on('data', (d) => (output += d));
          child.on('close', (code) => resolve({ ...c, code: code ?? 1, output }));
        }),
    ),
  );
  for (const c of ran) {
    console.log(`-- ${c.name}${c.code === 0 ? '' : ': mislukt'}`);
    if (c.output.trim()) console.log(c.output.trimEnd());
    results.push({ name: c.name, passed: c.code === 0 ? 1 : 0, failed: c.code === 0 ? 0 : 1 });
    if (c.code !== 0) failures.push(c.name);
  }
}

if (runVitest) {
  const file = path.join(out, 'vitest.json');
  const status = run(
    'npx',
    [
      'vitest',
      'run',
      // The fuzz suite runs in the PGlite pass only: it is about what the HTTP layer lets through, the same on
      // either database, and would add half a minute. `npm run fuzz` runs it on TEST_DATABASE_URL's server too.
      ...(database ? ['--project', 'server', '--exclude', '**/fuzz.test.ts'] : []),
      // The edit loop: the fast test files that import what changed since the last commit (all of them when a
      // module everything imports changed; none when nothing did).
      ...(quick ? ['--changed', '--passWithNoTests'] : []),
      `--maxWorkers=${process.env.TEST_VITEST_WORKERS ?? os.availableParallelism()}`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    quick ? { TEST_QUICK: '1' } : {},
  );
  let passed = 0,
    failed = 0;
  if (fs.existsSync(file)) {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed = r.numPassedTests;
    // A failed test also fails its suite: count suites only when no test failed (a hook or an import broke).
    failed = r.numFailedTests || (r.numFailedTestSuites ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
    for (const suite of r.testResults ?? []) {
      const file = path.relative(root, suite.name ?? '');
      const tests = suite.assertionResults ?? [];
      for (const t of tests) {
        const name = `vitest ${file} › ${t.fullName ?? t.title}`;
        if (t.status === 'failed') failures.push(`${name}${firstLine(t.failureMessages?.[0])}`);
        // Vitest keeps the errors of the tries before a retry that passed (CI retries once, vitest.config.ts).
        else if (t.status === 'passed' && t.failureMessages?.length)
          flaky.push(`${name}${firstLine(t.failureMessages[0])}`);
      }
      if (suite.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
        failures.push(`vitest ${file}${firstLine(suite.message)}`);
      }
    }
  }
  if (status !== 0 && failed === 0) failed = 1;
  results.push({
    name: `vitest (${process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'PGlite'})`,
    passed,
    failed,
  });
}

if (runE2e) {
  // The database pass runs on the build the full pass made (the web is built once per CI run).
  const build = !database || !fs.existsSync(distManifest);
  if (build && run('npm', ['run', 'build']) !== 0) {
    failedStage = true;
    results.push({ name: 'web build', passed: 0, failed: 1 });
  } else {
    if (!database) {
      // The bundle's size budgets (docs/performance.md): over budget is a failed stage.
      const budget = run('node', ['scripts/check-bundle.mjs']) === 0;
      if (!budget) failedStage = true;
      results.push({ name: 'bundle budget', passed: budget ? 1 : 0, failed: budget ? 0 : 1 });
    }
    const file = path.join(out, 'playwright.json');
    const status = run(
      'npx',
      [
        'playwright',
        'test',
        '--config',
        'e2e/playwright.config.ts',
        ...(database ? ['--grep', '@database'] : []),
      ],
      { PLAYWRIGHT_JSON_OUTPUT_FILE: file },
    );
    let passed = 0,
      failed = 0;
    if (fs.existsSync(file)) {
      const report = JSON.parse(fs.readFileSync(file, 'utf8'));
      const s = report.stats ?? {};
      for (const suite of report.suites ?? []) walkPlaywright(suite);
      passed = (s.expected ?? 0) + (s.flaky ?? 0);
      failed = s.unexpected ?? 0;
    }
    if (status !== 0 && failed === 0) failed = 1;
    results.push({ name: 'playwright (Chromium)', passed, failed });
  }
}

let passed = 0,
  failed = 0;
console.log('\nSamenvatting');
for (const r of results) {
  console.log(`  ${r.name}: ${r.passed} passed, ${r.failed} failed`);
  passed += r.passed;
  failed += r.failed;
}
if (flaky.length) console.log(`Geslaagd na een nieuwe poging:\n${flaky.map((f) => `  ${f}`).join('\n')}`);
if (failures.length) console.log(`Mislukt:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (passed === 0 && failed === 0) failed = 1; // a run that executed nothing is a failure
console.log(`Total: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failedStage ? 1 : 0);
