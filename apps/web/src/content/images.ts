/**
 * Illustrations shipped with the site (originals in src/assets/illustrations, rendered to AVIF, WebP
 * and JPEG at IMAGE_WIDTHS by scripts/images.mjs into public/img).
 */
export const IMAGE_WIDTHS = [480, 800, 1200] as const;

export interface ImageAsset {
  name: string;
  /** Intrinsic size of the original, for the aspect ratio. */
  width: number;
  height: number;
  alt: string;
}

const landscape = { width: 1200, height: 800 };
const portrait = { width: 960, height: 1200 };

export const images = {
  johanna: {
    name: 'johanna-garden',
    ...landscape,
    alt: 'Illustratie: silhouet van een vrouw voor een bloeiende tuin in het avondlicht',
  },
  pieter: {
    name: 'pieter-sea',
    ...landscape,
    alt: 'Illustratie: silhouet van een man aan zee met een vuurtoren in de schemering',
  },
  sanne: {
    name: 'sanne-tulips',
    ...landscape,
    alt: 'Illustratie: silhouet van een vrouw bij een tulpenveld bij zonsopgang',
  },
  emmaPortrait: {
    name: 'emma-portrait',
    ...portrait,
    alt: 'Illustratie: abstract portret van Emma in zacht licht',
  },
  candle: { name: 'candle', ...portrait, alt: 'Illustratie: een brandende kaars in het donker' },
  lake: { name: 'lake', ...portrait, alt: 'Illustratie: een stil meer tussen bergen bij zonsondergang' },
  bouquet: { name: 'bouquet', ...portrait, alt: 'Illustratie: een boeket veldbloemen in een vaas' },
  forest: { name: 'forest', ...landscape, alt: 'Illustratie: een bospad tussen hoge bomen met zonlicht' },
} satisfies Record<string, ImageAsset>;

export function imageUrl(asset: ImageAsset, width: number, format: 'avif' | 'webp' | 'jpg'): string {
  return `/img/${asset.name}-${width}.${format}`;
}

export function imageSrcSet(asset: ImageAsset, format: 'avif' | 'webp' | 'jpg'): string {
  return IMAGE_WIDTHS.map((w) => `${imageUrl(asset, w, format)} ${w}w`).join(', ');
}
