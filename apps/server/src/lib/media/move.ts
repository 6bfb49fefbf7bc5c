import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaStorage } from './storage.ts';

export interface MoveResult {
  copied: number;
  present: number;
  failed: { key: string; error: string }[];
}

/**
 * Copies every file of one media store into another (disk to bucket or back, docs/scale-out.md), through a
 * temporary file so that memory stays small whatever a file's size. A key the target already has is left as
 * it is, so the move can be run again after an interruption; the source is never changed.
 */
export async function copyMedia(o: {
  from: MediaStorage;
  to: MediaStorage;
  tmpDir: string;
  onProgress?: (done: number) => void;
}): Promise<MoveResult> {
  await fs.mkdir(o.tmpDir, { recursive: true });
  const result: MoveResult = { copied: 0, present: 0, failed: [] };
  let n = 0;
  for await (const key of o.from.keys()) {
    try {
      if (await o.to.exists(key)) result.present++;
      else {
        const tmp = path.join(o.tmpDir, `move-${process.pid}-${crypto.randomUUID()}`);
        try {
          await pipeline(await o.from.stream(key), createWriteStream(tmp));
          await o.to.putFile(key, tmp);
        } finally {
          await fs.rm(tmp, { force: true });
        }
        result.copied++;
      }
    } catch (err) {
      result.failed.push({ key, error: err instanceof Error ? err.message : String(err) });
    }
    o.onProgress?.(++n);
  }
  return result;
}
