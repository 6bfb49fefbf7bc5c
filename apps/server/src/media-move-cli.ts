// `npm run media:move -- to-s3` and `npm run media:move -- to-disk` (docs/scale-out.md): copies the media between
// DATA_DIR/media and the bucket of the S3_* settings. The source is left as it was.
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { copyMedia } from './lib/media/move.ts';
import { s3MediaStorage } from './lib/media/s3-storage.ts';
import { localMediaStorage } from './lib/media/storage.ts';

class Refused extends Error {}

async function main() {
  const direction = process.argv[2];
  if (direction !== 'to-s3' && direction !== 'to-disk')
    throw new Refused('Gebruik: npm run media:move -- to-s3 | to-disk');
  const config = loadConfig();
  if (!config.s3)
    throw new Refused(
      'Er is geen bucket ingesteld: zet S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID en S3_SECRET_ACCESS_KEY.',
    );
  const disk = localMediaStorage(path.join(config.DATA_DIR, 'media'));
  const bucket = s3MediaStorage(config.s3);
  const [from, to] = direction === 'to-s3' ? [disk, bucket] : [bucket, disk];
  const started = Date.now();
  const result = await copyMedia({
    from,
    to,
    tmpDir: path.join(config.DATA_DIR, 'tmp'),
    onProgress: (n) => {
      if (n % 500 === 0) console.log(`${n} bestanden bekeken…`);
    },
  });
  bucket.client.destroy();
  console.log(
    `${result.copied} gekopieerd, ${result.present} stonden er al, ${result.failed.length} mislukt ` +
      `(${direction === 'to-s3' ? `naar de bucket ${config.s3.bucket}` : `naar ${path.join(config.DATA_DIR, 'media')}`}; ` +
      `${Date.now() - started} ms). De bron is niet veranderd.`,
  );
  for (const f of result.failed) console.error(`  ${f.key}: ${f.error}`);
  if (result.failed.length) process.exit(1);
}

main().catch((err: unknown) => {
  if (err instanceof Refused || err instanceof ConfigError) console.error(err.message);
  else console.error('Mislukt:', err instanceof Error ? err.message : err);
  process.exit(1);
});
