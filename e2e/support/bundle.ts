import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web build's chunks are named by their hash alone (apps/web/vite.config.ts), so a test that watches
 * for one chunk finds its file in the build's manifest by the chunk's name (its source file's name).
 */
const manifestPath = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../apps/web/dist/.vite/manifest.json',
);

/** The `/assets/…` paths of the JavaScript chunks named `name` (e.g. 'oidc-session', 'coverflow'). */
export function chunkPaths(name: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<
    string,
    { file: string; name?: string }
  >;
  const files = Object.values(manifest)
    .filter((c) => c.name === name && c.file.endsWith('.js'))
    .map((c) => `/${c.file}`);
  if (files.length === 0) throw new Error(`No chunk named '${name}' in ${manifestPath}`);
  return files;
}

/** Whether `url` requests one of `paths`. */
export const requestsOneOf = (url: string, paths: string[]) => paths.includes(new URL(url).pathname);
