import sharp, { type Metadata } from 'sharp';
import { errorCodes, MEDIA_IMAGE_WIDTHS, MEDIA_MAX_PIXELS, MEDIA_WEB_WIDTH } from '@aandenken/contract';
import { AppError } from '../errors.ts';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'image/avif';
export type VariantFormat = 'webp' | 'jpg';

export const tooManyPixels = () =>
  new AppError(
    413,
    errorCodes.payloadTooLarge,
    `Deze foto heeft te veel pixels (maximaal ${MEDIA_MAX_PIXELS / 1_000_000} megapixel). Verklein de foto en probeer het opnieuw.`,
    { media: 'Te veel pixels' },
  );
export const undecodableImage = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Dit bestand is beschadigd of geen geldige afbeelding van het opgegeven type.',
    { media: 'Ongeldige afbeelding' },
  );

/** sharp's metadata().format per accepted type (AVIF is HEIF with AV1 compression). */
const sharpFormats: Record<ImageType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'heif',
};

export interface ProbedImage {
  /** Width and height after turning the image upright (EXIF orientation). */
  width: number;
  height: number;
}

const isPixelLimitError = (err: unknown) => err instanceof Error && /pixel limit/i.test(err.message);

/**
 * Reads the header and checks that the decoder agrees with the sniffed type and that the image is
 * within the pixel limit. The full decode happens in `renderVariant`.
 */
export async function probeImage(input: Buffer, type: ImageType): Promise<ProbedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw undecodableImage();
  }
  if (meta.format !== sharpFormats[type]) throw undecodableImage();
  if (type === 'image/avif' && meta.compression !== 'av1') throw undecodableImage();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw undecodableImage();
  if (width * height > MEDIA_MAX_PIXELS) throw tooManyPixels();
  return { width, height };
}

/**
 * Widths to render for an image `originalWidth` wide: the standard widths below it, plus the
 * original width itself when it is narrower than the largest standard width (never upscaled).
 */
export function variantWidths(originalWidth: number): number[] {
  const largest = MEDIA_IMAGE_WIDTHS[MEDIA_IMAGE_WIDTHS.length - 1]!;
  const widths: number[] = MEDIA_IMAGE_WIDTHS.filter((w) => w < originalWidth);
  if (originalWidth < largest) widths.push(originalWidth);
  else if (!widths.includes(largest)) widths.push(largest);
  return widths;
}

/** The width rendered while the upload waits: the web size, or the original when it is smaller. */
export const webWidth = (originalWidth: number) => Math.min(MEDIA_WEB_WIDTH, originalWidth);

export const variantName = (width: number, format: VariantFormat) => `w${width}.${format}`;
export const variantContentType = (format: VariantFormat) =>
  format === 'webp' ? 'image/webp' : 'image/jpeg';

export interface RenderedVariant {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * Decodes the whole image (first frame of an animation), turns it upright by its EXIF orientation,
 * scales it to `width` and encodes it. sharp writes no metadata unless asked: no EXIF, GPS, XMP,
 * IPTC or ICC profile leaves here; colours are converted to sRGB first.
 */
export async function renderVariant(
  input: Buffer,
  width: number,
  format: VariantFormat,
): Promise<RenderedVariant> {
  try {
    let pipeline = sharp(input, { limitInputPixels: MEDIA_MAX_PIXELS })
      .autoOrient()
      .resize({ width, withoutEnlargement: true })
      .toColourspace('srgb');
    pipeline =
      format === 'webp'
        ? pipeline.webp({ quality: 80, effort: 4 })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true });
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (err) {
    if (isPixelLimitError(err)) throw tooManyPixels();
    throw undecodableImage();
  }
}
