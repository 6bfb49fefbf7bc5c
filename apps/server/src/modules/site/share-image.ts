import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Sharp } from 'sharp';

/**
 * The picture a link preview shows (WhatsApp, Facebook, LinkedIn …): 1200×630, in the site's light colours,
 * the portrait on the left and the name and years set in Literata (the serif the printed book uses, a file in
 * the repository's dependencies). The layout is an SVG drawn by sharp; the text is rendered by sharp's own
 * text renderer from the font file (an SVG's text could only use the system's fonts).
 */
export const SHARE_IMAGE = { width: 1200, height: 630 } as const;

const require = createRequire(import.meta.url);
const font = (style: string) => require.resolve(`@expo-google-fonts/literata/${style}/Literata_${style}.ttf`);

/** The site's light theme (apps/web/src/styles.css). */
const colors = {
  background: '#f8f5f0',
  backgroundSoft: '#f1ece4',
  foreground: '#1d2226',
  muted: '#59626a',
  primary: '#2d5a4c',
  accent: '#a24f60',
  card: '#ffffff',
};

export interface ShareImageContent {
  /** The portrait's bytes (any format sharp reads), or null: a calm panel with the initials. */
  portrait: Buffer | null;
  /** Shown without a portrait; empty: a candle. */
  initials: string;
  eyebrow: string;
  title: string;
  subtitle: string | null;
}

/** Identifies what the image shows: it is made again when this changes (the cache key and the ETag). */
export function shareImageVersion(parts: Array<string | null | undefined>): string {
  return createHash('sha256')
    .update(JSON.stringify(['v1', ...parts]))
    .digest('base64url')
    .slice(0, 16);
}

const escapeMarkup = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function sharpOf(): Promise<(input?: unknown, options?: unknown) => Sharp> {
  const { default: sharp } = await import('sharp');
  return sharp as unknown as (input?: unknown, options?: unknown) => Sharp;
}

/** A line or a few lines of text as a transparent PNG, at most `width` wide. */
async function text(
  value: string,
  o: { style: string; family: string; size: number; color: string; width: number; spacing?: number },
) {
  const sharp = await sharpOf();
  const spacing = o.spacing ? ` letter_spacing="${o.spacing * 1024}"` : '';
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${o.color}"${spacing}>${escapeMarkup(value)}</span>`,
      font: `${o.family} ${o.size}`,
      fontfile: font(o.style),
      width: o.width,
      dpi: 72,
      rgba: true,
      wrap: 'word',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

const PANEL = { left: 72, top: 60, width: 408, height: 510, radius: 32 } as const;
const COLUMN = { left: 552, width: 576 } as const;

/** The 1200×630 PNG. */
export async function renderShareImage(content: ShareImageContent): Promise<Buffer> {
  const sharp = await sharpOf();
  const { width, height } = SHARE_IMAGE;
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs>
        <radialGradient id="a" cx="15%" cy="0%" r="75%"><stop offset="0" stop-color="${colors.primary}" stop-opacity="0.12"/><stop offset="1" stop-color="${colors.primary}" stop-opacity="0"/></radialGradient>
        <radialGradient id="b" cx="100%" cy="100%" r="60%"><stop offset="0" stop-color="${colors.accent}" stop-opacity="0.10"/><stop offset="1" stop-color="${colors.accent}" stop-opacity="0"/></radialGradient>
        <linearGradient id="p" x1="0" y1="0" x2="0.6" y2="1"><stop offset="0" stop-color="#d3ddd7"/><stop offset="1" stop-color="#ecd9dc"/></linearGradient>
      </defs>
      <rect width="100%" height="100%" fill="${colors.background}"/>
      <rect width="100%" height="100%" fill="url(#a)"/>
      <rect width="100%" height="100%" fill="url(#b)"/>
      <rect x="${PANEL.left}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" rx="${PANEL.radius}" fill="url(#p)" stroke="#e2dbd0" stroke-width="2"/>
      <line x1="${COLUMN.left}" y1="516" x2="${COLUMN.left + 56}" y2="516" stroke="${colors.accent}" stroke-width="3" stroke-linecap="round"/>
    </svg>`,
  );
  const layers: Array<{ input: Buffer; left: number; top: number }> = [];

  if (content.portrait) {
    const mask = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${PANEL.width}" height="${PANEL.height}"><rect width="100%" height="100%" rx="${PANEL.radius}" fill="#fff"/></svg>`,
    );
    const photo = await sharp(content.portrait, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(PANEL.width, PANEL.height, { fit: 'cover', position: 'attention' })
      .composite([{ input: mask, blend: 'dest-in' }])
      .png()
      .toBuffer();
    layers.push({ input: photo, left: PANEL.left, top: PANEL.top });
  } else if (!content.initials) {
    const cx = PANEL.left + PANEL.width / 2;
    const candle = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
        <ellipse cx="${cx}" cy="250" rx="70" ry="90" fill="#f6d9a8" opacity="0.45"/>
        <path d="M ${cx} 205 C ${cx + 26} 240, ${cx + 22} 278, ${cx} 290 C ${cx - 22} 278, ${cx - 26} 240, ${cx} 205 Z" fill="#e9a65a"/>
        <line x1="${cx}" y1="290" x2="${cx}" y2="306" stroke="${colors.foreground}" stroke-width="3"/>
        <rect x="${cx - 42}" y="306" width="84" height="190" rx="12" fill="${colors.card}" stroke="#e2dbd0" stroke-width="2"/>
      </svg>`,
    );
    layers.push({ input: candle, left: 0, top: 0 });
  } else {
    const initials = await text(content.initials, {
      style: '600SemiBold',
      family: 'Literata SemiBold',
      size: 150,
      color: '#3d4a47',
      width: PANEL.width,
    });
    layers.push({
      input: initials.input,
      left: PANEL.left + Math.round((PANEL.width - initials.width) / 2),
      top: PANEL.top + Math.round((PANEL.height - initials.height) / 2),
    });
  }

  const eyebrow = await text(content.eyebrow.toUpperCase(), {
    style: '500Medium',
    family: 'Literata Medium',
    size: 22,
    color: colors.muted,
    width: COLUMN.width,
    spacing: 3,
  });
  // A long name gets a smaller size so it fits in three lines.
  let title = await text(content.title, {
    style: '600SemiBold',
    family: 'Literata SemiBold',
    size: 66,
    color: colors.foreground,
    width: COLUMN.width,
  });
  if (title.height > 260) {
    title = await text(content.title, {
      style: '600SemiBold',
      family: 'Literata SemiBold',
      size: 48,
      color: colors.foreground,
      width: COLUMN.width,
    });
  }
  const subtitle = content.subtitle
    ? await text(content.subtitle, {
        style: '400Regular',
        family: 'Literata',
        size: 34,
        color: colors.accent,
        width: COLUMN.width,
        spacing: 4,
      })
    : null;
  const brand = await text('Aandenken', {
    style: '600SemiBold',
    family: 'Literata SemiBold',
    size: 30,
    color: colors.primary,
    width: COLUMN.width,
  });

  // Eyebrow, name and years as one block, centred above the brand line.
  const gap = 22;
  const block = eyebrow.height + gap + title.height + (subtitle ? gap + subtitle.height : 0);
  let top = Math.max(PANEL.top, Math.round((480 - block) / 2) + 20);
  for (const part of [eyebrow, title, subtitle]) {
    if (!part) continue;
    // Clipped to the canvas: a name of a hundred letters in one word still fits the image.
    const input =
      part.width > COLUMN.width || top + part.height > 500
        ? await sharp(part.input)
            .extract({
              left: 0,
              top: 0,
              width: Math.min(part.width, COLUMN.width),
              height: Math.max(1, Math.min(part.height, 500 - top)),
            })
            .png()
            .toBuffer()
        : part.input;
    if (top < 500) layers.push({ input, left: COLUMN.left, top });
    top += part.height + gap;
  }
  layers.push({ input: brand.input, left: COLUMN.left, top: 536 });

  return sharp(background).composite(layers).png({ compressionLevel: 9 }).toBuffer();
}

/** The preview of a page that gives nothing away (a private page, the site itself): no name, no photo. */
export function genericShareContent(): ShareImageContent {
  return {
    portrait: null,
    initials: '',
    eyebrow: 'Online gedenkpagina’s',
    title: 'Een plek waar herinneringen voortleven',
    subtitle: null,
  };
}

/**
 * Share images made, kept per key and version (at most `max`; the least recently used goes first).
 * Concurrent requests for one image share one rendering.
 */
export function shareImageCache(max = 64) {
  const images = new Map<string, Promise<Buffer>>();
  return (key: string, make: () => Promise<Buffer>): Promise<Buffer> => {
    const kept = images.get(key);
    if (kept) {
      images.delete(key);
      images.set(key, kept);
      return kept;
    }
    const made = make();
    images.set(key, made);
    made.catch(() => images.delete(key));
    for (const old of images.keys()) {
      if (images.size <= max) break;
      images.delete(old);
    }
    return made;
  };
}
