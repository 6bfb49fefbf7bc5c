#!/usr/bin/env node
// Renders the site's icons from public/favicon.svg into public/ (committed; run again after the SVG changes:
// `npm run icons -w @aandenken/web`): favicon.ico (16, 32 and 48 px), the home-screen icons the web app
// manifest names (192 and 512 px, and a maskable 512 px one) and apple-touch-icon.png (180 px).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
export const publicDir = path.resolve(here, '../public');

/** The dark theme's background, the favicon's own tile: the icons stand on it. */
const TILE = '#0f1417';

/**
 * The favicon's drawing on a square tile without rounded corners, smaller by `scale` around the middle: a
 * home screen (iOS, an Android mask) cuts its own shape, and a maskable icon keeps what matters inside the
 * circle of 40 % of its size around the middle (the drawing reaches 69 % of that radius at scale 1).
 */
function squareTile(svg, scale) {
  const drawing = svg.replace(/^[\s\S]*?<rect [^>]*\/>/, '').replace(/<\/svg>\s*$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${TILE}"/><g transform="translate(16 16) scale(${scale}) translate(-16 -16)">${drawing}</g></svg>`;
}

/** The SVG at `size` pixels square; `opaque`: without an alpha channel (a full tile). */
const png = (svg, size, { opaque = false } = {}) => {
  const image = sharp(Buffer.from(svg), { density: (72 * size) / 32 }).resize(size, size);
  return (opaque ? image.flatten({ background: TILE }) : image).png({ compressionLevel: 9 }).toBuffer();
};

/** An ICO file with PNG images inside (read by every browser since 2007): a header, a directory, the images. */
export function icoFrom(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

/** Each file's name and bytes, made from the SVG given. */
export async function renderIcons(svg) {
  const favicon = await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(svg, size) })));
  return {
    'favicon.ico': icoFrom(favicon),
    'icon-192.png': await png(svg, 192),
    'icon-512.png': await png(svg, 512),
    'icon-maskable-512.png': await png(squareTile(svg, 0.8), 512, { opaque: true }),
    // Opaque: iOS fills a transparent corner with black.
    'apple-touch-icon.png': await png(squareTile(svg, 0.85), 180, { opaque: true }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await renderIcons(fs.readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8'));
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(publicDir, name), data);
  console.log(
    `icons: wrote ${Object.keys(files).join(', ')} into ${path.relative(process.cwd(), publicDir)}`,
  );
}
