import { errorCodes, MEDIA_IMAGE_WIDTHS, MEDIA_MAX_PIXELS, MEDIA_WEB_WIDTH } from '@aandenken/contract';
import { AppError } from '../errors.ts';
import {
  asBuffer,
  ImageWorkError,
  type IllustrationRequest,
  type ImageInput,
  type ImageType,
  type ProbedImage,
  type RenderedVariant,
  type VariantFormat,
} from './image-task.ts';
import { runImageTask } from './image-worker.ts';

export type { ImageInput, ImageType, ProbedImage, RenderedVariant, VariantFormat } from './image-task.ts';

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
    'Deze foto kunnen we niet openen; misschien is het bestand beschadigd. Bewaar de foto op je telefoon of computer opnieuw als JPEG of PNG en probeer het nog eens.',
    { media: 'Ongeldige afbeelding' },
  );

/** An image the image process refused, as the answer the caller gets. */
function refusal(err: unknown): unknown {
  if (!(err instanceof ImageWorkError)) return err;
  return err.kind === 'pixels' ? tooManyPixels() : undecodableImage();
}

/**
 * Reads the header and checks that the decoder agrees with the sniffed type and that the image is
 * within the pixel limit. The full decode happens in `renderVariant`. Both run in the image process
 * (`image-worker.ts`).
 */
export async function probeImage(input: ImageInput, type: ImageType): Promise<ProbedImage> {
  try {
    return await runImageTask<ProbedImage>({ op: 'probe', input, type, maxPixels: MEDIA_MAX_PIXELS });
  } catch (err) {
    throw refusal(err);
  }
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

/**
 * Decodes the whole image (first frame of an animation), turns it upright by its EXIF orientation,
 * scales it to `width` and encodes it. sharp writes no metadata unless asked: no EXIF, GPS, XMP,
 * IPTC or ICC profile leaves here; colours are converted to sRGB first.
 */
export async function renderVariant(
  input: ImageInput,
  width: number,
  format: VariantFormat,
): Promise<RenderedVariant> {
  try {
    const out = await runImageTask<RenderedVariant>({
      op: 'render',
      input,
      width,
      format,
      maxPixels: MEDIA_MAX_PIXELS,
    });
    return { data: asBuffer(out.data), width: out.width, height: out.height };
  } catch (err) {
    throw refusal(err);
  }
}

/** An SVG illustration rendered to a JPEG in the image process (the example memorials' photos). */
export async function renderIllustration(req: IllustrationRequest): Promise<Buffer> {
  const out = await runImageTask<Uint8Array>({ op: 'illustration', ...req });
  return asBuffer(out);
}
