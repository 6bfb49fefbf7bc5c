import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Settings } from '../../src/lib/media/s3-storage.ts';

/**
 * A local S3-compatible server (s3rver, from the registry) on a loopback port, keeping its objects in a temporary
 * folder: speaks S3's REST protocol (signed requests, ranges, multipart uploads, listing, batch deletes). Each
 * `bucket()` is a new, empty bucket.
 */
export interface S3StandIn {
  endpoint: string;
  bucket(): Promise<S3Settings>;
  close(): Promise<void>;
}

export async function startS3StandIn(): Promise<S3StandIn> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'eu-west-1', forcePathStyle: true, credentials });
  return {
    endpoint,
    async bucket() {
      const bucket = `media-${randomBytes(4).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return { endpoint, bucket, region: 'eu-west-1', forcePathStyle: true, ...credentials };
    },
    async close() {
      client.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
