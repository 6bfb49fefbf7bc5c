// The bench's own packages (Lighthouse, autocannon, tsx, …) are not part of the project's `npm ci`: they are
// installed here on first use, from the registry, exactly as bench/package-lock.json pins them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs `npm ci` in bench/ when its node_modules is missing or older than its lockfile. */
export function ensureBenchPackages() {
  const lock = path.join(benchDir, 'package-lock.json');
  const installed = path.join(benchDir, 'node_modules/.package-lock.json');
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  console.log('bench: de pakketten van de bench installeren (npm ci in bench/)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: benchDir, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('bench: npm ci in bench/ is mislukt');
    process.exit(r.status ?? 1);
  }
}
