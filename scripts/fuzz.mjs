#!/usr/bin/env node
// `npm run fuzz`: the fuzz suite (apps/server/test/fuzz.test.ts) at full count: FUZZ_RUNS requests per call
// and caller (default 250: 1,000 per call over its four callers), with a random seed unless FUZZ_SEED is set.
// The seed is printed first and last, so that a failure can be repeated: FUZZ_SEED=<seed> npm run fuzz.
// Runs on PGlite, or on the PostgreSQL server named by TEST_DATABASE_URL.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = process.env.FUZZ_RUNS ?? '250';
const seed = process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31 - 1));
if (!/^\d+$/.test(runs) || !/^-?\d+$/.test(seed)) {
  console.error('FUZZ_RUNS is een aantal en FUZZ_SEED een geheel getal.');
  process.exit(2);
}
const started = Date.now();
console.log(`Fuzz: ${runs} verzoeken per aanroep en beller, FUZZ_SEED=${seed}`);
const status =
  spawnSync('npx', ['vitest', 'run', '--project', 'server', 'apps/server/test/fuzz.test.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed },
  }).status ?? 1;
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  status === 0
    ? `Fuzz geslaagd in ${minutes} min (FUZZ_SEED=${seed}, FUZZ_RUNS=${runs}).`
    : `Fuzz mislukt in ${minutes} min. Herhalen: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz`,
);
process.exit(status);
