// What the server and the image process (`image-process.ts`) say to each other, and the shapes of image work.
// No sharp here: the server's own process never loads libvips (docs/decisions/015-memory.md).

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'image/avif';
export type VariantFormat = 'webp' | 'jpg';

/** The two outcomes a caller answers differently: too many pixels, not a decodable image. */
export class ImageWorkError extends Error {
  readonly kind: 'pixels' | 'undecodable';
  constructor(kind: 'pixels' | 'undecodable') {
    super(kind === 'pixels' ? 'too many pixels' : 'undecodable image');
    this.kind = kind;
  }
}

export interface ProbedImage {
  /** Width and height after turning the image upright (EXIF orientation). */
  width: number;
  height: number;
}

export interface RenderedVariant {
  data: Buffer;
  width: number;
  height: number;
}

export interface IllustrationRequest {
  /** An SVG drawing, rendered at `density` and scaled to `width`. */
  svg: Buffer;
  density: number;
  width: number;
  /** A detail of it, as fractions of the rendered size. */
  crop?: { left: number; top: number; width: number; height: number };
}

/**
 * An image as bytes, or as the path of a local file that the image process reads itself (uploads and the local
 * media storage: the server then never holds, copies or sends the image's bytes).
 */
export type ImageInput = Uint8Array | { path: string };

export type ImageTask =
  | { op: 'probe'; input: ImageInput; type: ImageType; maxPixels: number }
  | { op: 'render'; input: ImageInput; width: number; format: VariantFormat; maxPixels: number }
  | ({ op: 'illustration' } & Omit<IllustrationRequest, 'svg'> & { svg: Uint8Array });

export type ImageReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; kind: 'pixels' | 'undecodable' | 'failed'; message: string };

/** A Buffer from what arrived over IPC (the advanced serialization may hand over a plain Uint8Array). */
export const asBuffer = (u: Uint8Array) =>
  Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
