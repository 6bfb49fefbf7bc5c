import path from 'node:path';
import type { Config } from '../../config.ts';
import { s3MediaStorage } from './s3-storage.ts';
import { localMediaStorage, type MediaStorage } from './storage.ts';

/** The media store the configuration names: the S3 bucket when `S3_BUCKET` is set, DATA_DIR/media otherwise. */
export function mediaStorageFor(config: Config): MediaStorage {
  if (config.s3) return s3MediaStorage(config.s3);
  return localMediaStorage(path.join(config.DATA_DIR, 'media'));
}
