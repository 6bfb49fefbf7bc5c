// Steps of the memory section (bench/sections/memory.mjs), each in a process of its own:
//   --mode make  --file JPEG                         a 4000 × 3000 photo-like JPEG (as bench/uploads.ts makes)
//   --mode sharp --file JPEG                         sharp alone on it: what an upload and its background job
//                                                    render (web-sized WebP, then every variant); its peak RSS
//   --mode token --data-dir DIR [--database-url URL] --public-url URL
//                                                    an account and an access token, written while the server
//                                                    is stopped (PGlite admits one process at a time)
// Runs on Node's own type stripping (no tsx), so the section needs none of the bench's packages.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { MEDIA_MAX_PIXELS, MEDIA_WEB_WIDTH } from '@aandenken/contract';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDb } from '../apps/server/src/db/client.ts';
import { plannedVariants } from '../apps/server/src/lib/media/pipeline.ts';
import { probeWork, renderWork } from '../apps/server/src/lib/media/image-work.ts';
import { arg, photo, report, userToken } from './lib/app.ts';

const mode = arg('mode');
const file = arg('file')!;
const mb = (bytes: number) => bytes / 1024 / 1024;

if (mode === 'make') {
  const grain = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 28 },
    },
  })
    .png()
    .toBuffer();
  await fs.writeFile(
    file,
    await sharp(await photo(4000, 3000, 12))
      .composite([{ input: grain, blend: 'soft-light' }])
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  const meta = await sharp(file).metadata();
  report({ file, width: meta.width, height: meta.height, bytes: (await fs.stat(file)).size });
} else if (mode === 'sharp') {
  const restMb = mb(process.memoryUsage().rss);
  const input = await fs.readFile(file);
  // In this process, as the server did before the image process (docs/decisions/015-memory.md).
  const { width } = await probeWork(input, 'image/jpeg', MEDIA_MAX_PIXELS);
  await renderWork(input, Math.min(MEDIA_WEB_WIDTH, width), 'webp', MEDIA_MAX_PIXELS);
  for (const v of plannedVariants(width)) await renderWork(input, v.width, v.format, MEDIA_MAX_PIXELS);
  report({ restMb, peakMb: process.resourceUsage().maxRSS / 1024 });
} else if (mode === 'token') {
  const dataDir = arg('data-dir')!;
  const databaseUrl = arg('database-url');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PUBLIC_URL: arg('public-url')!,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const db = await createDb({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'pg'),
  });
  try {
    const owner = await userToken({ db, config }, 'geheugen@bench.aandenken.test', 'Geheugen Meting');
    report(owner);
  } finally {
    await db.close();
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
