// A new embedded database (PGlite) is created and migrated by a child process that exits before the server opens
// it. PostgreSQL's initdb and the first migrations make PGlite's WebAssembly memory and the malloc arenas beneath
// it grow, and a process never gives that back; a child's goes with it (docs/decisions/015-memory.md).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'embedded-first-start-child.ts');

/** Node's memory flags of this process that the child should run with as well. */
const memoryFlags = () =>
  process.execArgv.filter((a) => /^--(max-semi-space-size|max-old-space-size|liftoff-only)\b/.test(a));

/**
 * Creates and migrates the embedded database in `dir` in a child process when there is none yet (no
 * `PG_VERSION`); does nothing otherwise. With `seedExamples` the child also makes the example memorials (their
 * photos are rendered and resized by libvips, whose memory a process keeps too). The server migrates and seeds
 * again after opening it, so a child that stopped half-way leaves nothing the server does not finish.
 */
/** Whether `dir` holds an embedded database already (PostgreSQL's `PG_VERSION` file). */
export const embeddedDatabaseExists = (dir: string) => fs.existsSync(path.join(dir, 'PG_VERSION'));

export async function prepareEmbeddedDatabase(
  dir: string,
  opts: { seedExamples?: boolean } = {},
): Promise<boolean> {
  if (embeddedDatabaseExists(dir)) return false;
  await new Promise<void>((resolve, reject) => {
    const child = fork(entry, [dir, ...(opts.seedExamples ? ['seed'] : [])], {
      execArgv: memoryFlags(),
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`de database kon niet worden aangemaakt (${signal ?? `exit ${code}`})`));
    });
  });
  return true;
}
