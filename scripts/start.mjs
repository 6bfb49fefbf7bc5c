#!/usr/bin/env node
// `npm start`: builds what is missing, then becomes the one-process server (site, API, identity provider): the
// server runs in this very process, so nothing but npm itself waits beside it (docs/decisions/015-memory.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);
// The server runs its TypeScript directly (Node's type stripping, unflagged since 22.18): no transpiler at start.
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(
    `Aandenken heeft Node.js 22.18 of nieuwer nodig (24 LTS aanbevolen); dit is ${process.version}.`,
  );
  process.exit(1);
}

const webDist = path.join(root, 'apps/web/dist/index.html');
if (process.argv.includes('--build') || !fs.existsSync(webDist)) {
  console.log('Website bouwen…');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// Relative to the repository, as `npm run backup` and `npm run restore` (run from the repository) see it.
process.env.DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data');
await import('../apps/server/src/server.ts');
