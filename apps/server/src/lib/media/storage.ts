import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StorageUnavailableError } from '../unavailable.ts';

/**
 * Where media files live. Keys are `<media id>/<name>`; the database says which keys exist.
 * The local implementation keeps them under DATA_DIR/media; `s3-storage.ts` keeps them in an S3-compatible
 * bucket (put = PutObject, putFile = multipart upload, get = GetObject with Range, deletePrefix = ListObjects +
 * DeleteObjects). `mediaStorageFor` picks one from the configuration.
 */
export interface MediaStorage {
  /** Stores bytes under `key`, replacing what was there; readers never see a half-written file. */
  put(key: string, data: Buffer): Promise<void>;
  /** Moves a local temporary file into storage under `key` (the file is consumed). */
  putFile(key: string, filePath: string): Promise<void>;
  /** The whole file (used for processing; images are at most a few tens of MB). */
  read(key: string): Promise<Buffer>;
  /** Where the file is when the storage is a local directory (the image process then reads it itself). */
  localPath?(key: string): string;
  /** A stream of the file or of an inclusive byte range of it; MediaMissingError when there is no such file. */
  stream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every file whose key starts with `prefix/`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every key stored (for moving media between stores), in no particular order. */
  keys(): AsyncIterable<string>;
}

/** The store answered, and there is no file under this key (every other failure is the store's own). */
export class MediaMissingError extends Error {
  constructor(key: string, options?: ErrorOptions) {
    super(`no media stored under ${key}`, options);
    this.name = 'MediaMissingError';
  }
}

/**
 * `storage.stream` for an answer: a file the store does not have throws `missing()` (a 404 of the caller's
 * choosing); any other failure of the store (unreachable, refusing, erroring) throws StorageUnavailableError,
 * which the error handler answers with 503.
 */
export async function streamStored(
  storage: MediaStorage,
  key: string,
  missing: () => Error,
  range?: { start: number; end: number },
): Promise<Readable> {
  try {
    return await storage.stream(key, range);
  } catch (err) {
    if (err instanceof MediaMissingError) throw missing();
    throw new StorageUnavailableError(err);
  }
}

const keyPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[a-z0-9][a-z0-9.-]{0,40}$/;
const prefixPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkKey(key: string) {
  // Keys are built by the server from UUIDs and fixed names; anything else is a bug, never a path.
  if (!keyPattern.test(key)) throw new Error(`invalid media storage key: ${JSON.stringify(key)}`);
}

export function checkPrefix(prefix: string) {
  if (!prefixPattern.test(prefix)) throw new Error(`invalid media storage prefix: ${JSON.stringify(prefix)}`);
}

export function localMediaStorage(root: string): MediaStorage {
  const full = (key: string) => {
    checkKey(key);
    return path.join(root, key);
  };
  const tmpName = (target: string) => `${target}.tmp-${process.pid}-${crypto.randomUUID()}`;

  return {
    async put(key, data) {
      const target = full(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = tmpName(target);
      try {
        await fs.writeFile(tmp, data);
        await fs.rename(tmp, target);
      } catch (err) {
        await fs.rm(tmp, { force: true });
        throw err;
      }
    },
    async putFile(key, filePath) {
      const target = full(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.rename(filePath, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        const tmp = tmpName(target);
        try {
          await fs.copyFile(filePath, tmp);
          await fs.rename(tmp, target);
        } catch (copyErr) {
          await fs.rm(tmp, { force: true }); // a disk that filled up keeps no half-copied file
          throw copyErr;
        }
        await fs.rm(filePath, { force: true });
      }
    },
    read: (key) => fs.readFile(full(key)),
    localPath: full,
    async stream(key, range) {
      const file = full(key);
      try {
        await fs.access(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') throw new MediaMissingError(key, { cause: err });
        throw err;
      }
      return createReadStream(file, range ? { start: range.start, end: range.end } : undefined);
    },
    async exists(key) {
      try {
        await fs.access(full(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await fs.rm(full(key), { force: true });
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      await fs.rm(path.join(root, prefix), { recursive: true, force: true });
    },
    async *keys() {
      for (const dir of await fs.readdir(root).catch(() => [] as string[])) {
        if (!prefixPattern.test(dir)) continue;
        for (const name of await fs.readdir(path.join(root, dir)).catch(() => [] as string[])) {
          const key = `${dir}/${name}`;
          // Half-written files of a killed process are not media (the orphan sweep removes them).
          if (keyPattern.test(key)) yield key;
        }
      }
    },
  };
}
