// The image work itself (sharp, i.e. libvips). It runs in the image process (`image-process.ts`), never in the
// server's own process: libvips' buffers and the malloc arenas of its threads are returned to the system when
// that process is recycled (docs/decisions/015-memory.md). Functions throw `ImageWorkError` for the two
// outcomes a caller answers differently (too many pixels, not a decodable image). It imports nothing but sharp and
// types, so the image process starts quickly and small.
import sharp, { type Metadata } from 'sharp';
import {
  ImageWorkError,
  type IllustrationRequest,
  type ImageType,
  type ProbedImage,
  type RenderedVariant,
  type VariantFormat,
} from './image-task.ts';

/** sharp's metadata().format per accepted type (AVIF is HEIF with AV1 compression). */
const sharpFormats: Record<ImageType, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'heif',
};

const isPixelLimitError = (err: unknown) => err instanceof Error && /pixel limit/i.test(err.message);

/** See `probeImage` in image.ts. */
export async function probeWork(
  input: Buffer | string,
  type: ImageType,
  maxPixels: number,
): Promise<ProbedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageWorkError('undecodable');
  }
  if (meta.format !== sharpFormats[type]) throw new ImageWorkError('undecodable');
  if (type === 'image/avif' && meta.compression !== 'av1') throw new ImageWorkError('undecodable');
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new ImageWorkError('undecodable');
  if (width * height > maxPixels) throw new ImageWorkError('pixels');
  return { width, height };
}

/** See `renderVariant` in image.ts. */
export async function renderWork(
  input: Buffer | string,
  width: number,
  format: VariantFormat,
  maxPixels: number,
): Promise<RenderedVariant> {
  try {
    let pipeline = sharp(input, { limitInputPixels: maxPixels })
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
    if (isPixelLimitError(err)) throw new ImageWorkError('pixels');
    throw new ImageWorkError('undecodable');
  }
}

/** An SVG illustration rendered to a JPEG (the example memorials' photos). */
export async function illustrationWork(req: IllustrationRequest): Promise<Buffer> {
  let image = sharp(req.svg, { density: req.density }).resize({ width: req.width });
  if (req.crop) {
    const full = await image.png().toBuffer({ resolveWithObject: true });
    const { width, height } = full.info;
    image = sharp(full.data).extract({
      left: Math.round(req.crop.left * width),
      top: Math.round(req.crop.top * height),
      width: Math.round(req.crop.width * width),
      height: Math.round(req.crop.height * height),
    });
  }
  return image.flatten({ background: '#ffffff' }).jpeg({ quality: 86, mozjpeg: true }).toBuffer();
}
