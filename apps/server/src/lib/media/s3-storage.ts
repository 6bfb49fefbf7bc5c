import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import { checkKey, checkPrefix, MediaMissingError, type MediaStorage } from './storage.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (MinIO, most S3-compatible services) instead of in the host name. */
  forcePathStyle: boolean;
}

/** Parts of a multipart upload: S3's minimum is 5 MB; two in flight keep an upload's memory near 16 MB. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

// The SDK is loaded when a bucket is configured: a server without one does not keep it in its memory.
const require = createRequire(import.meta.url);
const sdk = () => require('@aws-sdk/client-s3') as typeof ClientS3;

const notFound = (err: unknown) =>
  err instanceof sdk().S3ServiceException &&
  (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404);

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Scaleway, OVH …) under the same keys as on disk
 * (docs/decisions/016-media-in-object-storage.md). Objects appear whole or not at all, so readers never see a
 * half-written file; large files go up in parts; reads of a range ask the bucket for just that range. The app
 * keeps streaming media itself: a link to a bucket would bypass the per-request access checks.
 */
export function s3MediaStorage(settings: S3Settings): MediaStorage & { client: S3Client } {
  const {
    DeleteObjectCommand,
    DeleteObjectsCommand,
    GetObjectCommand,
    HeadObjectCommand,
    PutObjectCommand,
    S3Client,
  } = sdk();
  const { Upload } = require('@aws-sdk/lib-storage') as typeof LibStorage;
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // Checksums only where the protocol requires them: several S3-compatible services do not know the newer
    // default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  const get = async (key: string, range?: { start: number; end: number }) => {
    checkKey(key);
    const res = await client.send(
      new GetObjectCommand({
        Bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    if (!res.Body) throw new Error(`empty answer for ${key}`);
    return res.Body;
  };

  return {
    client,
    async put(key, data) {
      checkKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: data, ContentLength: data.length }));
    },
    async putFile(key, filePath) {
      checkKey(key);
      const { size } = await fs.stat(filePath);
      if (size <= PART_SIZE) {
        await client.send(
          new PutObjectCommand({ Bucket, Key: key, Body: await fs.readFile(filePath), ContentLength: size }),
        );
      } else {
        await new Upload({
          client,
          params: { Bucket, Key: key, Body: createReadStream(filePath) },
          partSize: PART_SIZE,
          queueSize: PARTS_IN_FLIGHT,
          leavePartsOnError: false,
        }).done();
      }
      await fs.rm(filePath, { force: true });
    },
    async read(key) {
      const body = await get(key);
      return Buffer.from(await body.transformToByteArray());
    },
    async stream(key, range) {
      let body: Awaited<ReturnType<typeof get>>;
      try {
        body = await get(key, range);
      } catch (err) {
        if (notFound(err)) throw new MediaMissingError(key, { cause: err });
        throw err;
      }
      return body instanceof Readable ? body : Readable.fromWeb(body.transformToWebStream() as never);
    },
    async exists(key) {
      checkKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (notFound(err)) return false;
        throw err;
      }
    },
    async delete(key) {
      checkKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async deletePrefix(prefix) {
      checkPrefix(prefix);
      for await (const keys of listPages(client, Bucket, `${prefix}/`)) {
        if (keys.length === 0) continue;
        await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    },
    async *keys() {
      for await (const page of listPages(client, Bucket, undefined)) yield* page;
    },
  };
}

async function* listPages(client: S3Client, Bucket: string, Prefix: string | undefined) {
  const { ListObjectsV2Command } = sdk();
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
    yield (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}
