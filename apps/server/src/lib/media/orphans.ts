import fs from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../../db/client.ts';
import { sweepStaleUploads } from './upload.ts';

export const MEDIA_ORPHANS_TASK = 'media.orphans';
/** Files younger than this may belong to an upload still under way (stored before its row commits). */
export const MEDIA_ORPHAN_MIN_AGE_MS = 3_600_000;

const uuidDir = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Removes what a process that stopped mid-write (kill -9, power loss) left in local media storage: a
 * folder whose id no media row or export names (the files were stored, the row never committed),
 * half-written `.tmp-` files, and temporary upload files. Only what is older than `olderThanMs`.
 * Runs as a periodic task of the job queue (hourly) and can be run by hand with the server stopped.
 */
export async function sweepMediaOrphans(o: {
  db: Queryable;
  mediaRoot: string;
  tmpDir: string;
  olderThanMs?: number;
}): Promise<{ folders: number; tmpFiles: number }> {
  const olderThanMs = o.olderThanMs ?? MEDIA_ORPHAN_MIN_AGE_MS;
  const limit = Date.now() - olderThanMs;
  const old = async (p: string) => {
    const stat = await fs.stat(p).catch(() => null);
    return stat !== null && stat.mtimeMs <= limit;
  };
  const names = (await fs.readdir(o.mediaRoot).catch(() => [] as string[])).filter((n) => uuidDir.test(n));
  let folders = 0;
  let tmpFiles = 0;
  if (names.length > 0) {
    const { rows } = await o.db.query<{ id: string }>(
      `SELECT id::text AS id FROM media WHERE id = ANY($1::uuid[])
       UNION SELECT id::text FROM exports WHERE id = ANY($1::uuid[])`,
      [names],
    );
    const known = new Set(rows.map((r) => r.id));
    for (const name of names) {
      const dir = path.join(o.mediaRoot, name);
      if (!known.has(name)) {
        if (await old(dir)) {
          await fs.rm(dir, { recursive: true, force: true });
          folders++;
        }
        continue;
      }
      for (const file of await fs.readdir(dir).catch(() => [] as string[])) {
        const full = path.join(dir, file);
        if (file.includes('.tmp-') && (await old(full))) {
          await fs.rm(full, { force: true });
          tmpFiles++;
        }
      }
    }
  }
  await sweepStaleUploads(o.tmpDir, olderThanMs);
  return { folders, tmpFiles };
}
