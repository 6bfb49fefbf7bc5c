#!/usr/bin/env node
// Renders the original SVG illustrations (src/assets/illustrations) into responsive rasters for
// <picture>: AVIF, WebP and JPEG at three widths, in public/img (generated, not committed).
// Skips work that is already up to date, so running it before every build costs nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceDir = path.resolve(here, '../src/assets/illustrations');
const outDir = path.resolve(here, '../public/img');
export const WIDTHS = [480, 800, 1200];
const FORMATS = {
  avif: (img) => img.avif({ quality: 55, effort: 2 }),
  webp: (img) => img.webp({ quality: 78 }),
  jpg: (img) => img.jpeg({ quality: 82, progressive: true, mozjpeg: true }),
};

export async function renderImages({ log = console.log } = {}) {
  fs.mkdirSync(outDir, { recursive: true });
  const sources = fs.readdirSync(sourceDir).filter((f) => f.endsWith('.svg'));
  let rendered = 0;
  for (const file of sources) {
    const name = file.replace(/\.svg$/, '');
    const src = path.join(sourceDir, file);
    const srcTime = fs.statSync(src).mtimeMs;
    const targets = WIDTHS.flatMap((w) =>
      Object.keys(FORMATS).map((ext) => ({ w, ext, out: path.join(outDir, `${name}-${w}.${ext}`) })),
    );
    if (targets.every((t) => fs.existsSync(t.out) && fs.statSync(t.out).mtimeMs >= srcTime)) continue;
    const svg = fs.readFileSync(src);
    const { width } = await sharp(svg).metadata();
    await Promise.all(
      targets.map(async ({ w, ext, out }) => {
        // Render the vector at the target density so edges stay crisp at every width.
        const density = Math.max(1, (72 * w) / (width ?? w));
        const img = sharp(svg, { density }).resize({ width: w }).flatten({ background: '#000000' });
        await FORMATS[ext](img).toFile(out);
      }),
    );
    rendered += 1;
  }
  if (rendered > 0)
    log(`images: rendered ${rendered} illustration(s) into ${path.relative(process.cwd(), outDir)}`);
  return rendered;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await renderImages();
}
