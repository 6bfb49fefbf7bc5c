// A 12-megapixel JPEG through the real upload route: the answer time (original stored, web-sized WebP made)
// and the full processing time (background variants in the job queue), with the process's peak memory.
// `--mode floor` measures sharp alone on the same file in its own process: the web-sized WebP, then
// every variant the background job makes (the physical floor for both figures).
// Usage: node --import tsx bench/uploads.ts --mode app|floor --file JPEG --data-dir DIR [--runs 3]
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { MEDIA_MAX_PIXELS, MEDIA_WEB_WIDTH } from '@aandenken/contract';
import { plannedVariants } from '../apps/server/src/lib/media/pipeline.ts';
import { renderWork } from '../apps/server/src/lib/media/image-work.ts';
import { arg, formData, openApp, photo, report, userToken } from './lib/app.ts';
import { median } from './lib/stats.mjs';

const mode = arg('mode') ?? 'app';
const file = arg('file')!;
const runs = Number(arg('runs') ?? 3);
const peakMb = () => process.resourceUsage().maxRSS / 1024;

if (mode === 'make') {
  // The test image itself: 4000 × 3000, photo-like.
  // Sensor-like grain on top, so it weighs what a phone photo weighs (a few MB), not a smooth drawing.
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
  const base = await photo(4000, 3000, 12);
  await fs.writeFile(
    file,
    await sharp(base)
      .composite([{ input: grain, blend: 'soft-light' }])
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  const meta = await sharp(file).metadata();
  report({ file, width: meta.width, height: meta.height, bytes: (await fs.stat(file)).size });
} else if (mode === 'floor') {
  const input = await fs.readFile(file);
  const { width } = await sharp(input).metadata();
  const answer: number[] = [];
  const full: number[] = [];
  const restMb = process.memoryUsage().rss / 1024 / 1024;
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    await sharp(input)
      .rotate()
      .resize({ width: Math.min(MEDIA_WEB_WIDTH, width!) })
      .webp()
      .toBuffer();
    answer.push(performance.now() - t0);
    t0 = performance.now();
    for (const v of plannedVariants(width!)) await renderWork(input, v.width, v.format, MEDIA_MAX_PIXELS);
    full.push(performance.now() - t0);
  }
  report({ mode, answerMs: median(answer), variantsMs: median(full), restMb, peakMb: peakMb() });
} else {
  const b = await openApp({ dataDir: arg('data-dir')! });
  const owner = await userToken(b, 'upload@bench.aandenken.test', 'Upload Eigenaar');
  const memorialId = (
    await b.app.inject({
      method: 'POST',
      url: '/core/memorial/concept',
      headers: owner.headers,
      payload: { firstName: 'Foto', lastName: 'Test' },
    })
  ).json().id as string;
  const data = await fs.readFile(file);
  const answer: number[] = [];
  const processing: number[] = [];
  const restMb = process.memoryUsage().rss / 1024 / 1024;
  for (let i = 0; i < runs; i++) {
    const memory = await b.app.inject({
      method: 'POST',
      url: '/core/memories/concept',
      headers: owner.headers,
      payload: { memorialId, yearLabel: '2024', text: 'Met foto.' },
    });
    const { payload, headers } = await formData(
      { memoryId: memory.json().id },
      { data, type: 'image/jpeg', name: 'foto.jpg' },
    );
    const t0 = performance.now();
    const res = await b.app.inject({
      method: 'POST',
      url: '/core/memory/medias',
      headers: { ...owner.headers, ...headers },
      payload,
    });
    const answered = performance.now();
    if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
    const mediaId = res.json().id as string;
    for (;;) {
      const { rows } = await b.db.query<{ status: string }>('SELECT status FROM media WHERE id = $1', [
        mediaId,
      ]);
      if (rows[0]!.status !== 'processing') {
        if (rows[0]!.status !== 'ready') throw new Error(`processing ended as ${rows[0]!.status}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    answer.push(answered - t0);
    processing.push(performance.now() - t0);
  }
  await b.close();
  report({
    mode,
    answerMs: median(answer),
    fullMs: median(processing),
    restMb,
    peakMb: peakMb(),
    bytes: data.length,
  });
}
