import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { errorCodes, type MediaKind } from '@aandenken/contract';
import { AppError } from '../errors.ts';
import {
  probeImage,
  renderVariant,
  variantContentType,
  variantName,
  variantWidths,
  webWidth,
  type ImageType,
  type VariantFormat,
} from './image.ts';
import { sniff } from './sniff.ts';
import type { MediaStorage } from './storage.ts';
import { heicUnsupported, type ReceivedFile } from './upload.ts';
import { rewriteWithoutMetadata } from './video.ts';

export interface StoredVariant {
  name: string;
  contentType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  sha256: string;
  storageKey: string;
}

export interface IngestedMedia {
  id: string;
  kind: MediaKind;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  /** The uploaded image, kept (never served) until the background job has made every variant. */
  sourceKey: string | null;
  variants: StoredVariant[];
}

const mismatch = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Dit bestand kunnen we niet openen als foto of video. Bewaar het opnieuw als JPEG of PNG (foto) of MP4 (video) en probeer het nog eens.',
    { media: 'Inhoud en bestandstype komen niet overeen' },
  );
const quicktimeUnsupported = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    "MOV- en MKV-video's worden niet ondersteund. Zet de video om naar MP4 of WebM.",
    { media: 'Videoformaat niet ondersteund' },
  );

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Turns a received upload into stored media, or refuses it (415/413) with nothing stored.
 * The declared type, the magic bytes and (for images) a full decode must agree. Images: the
 * upload is answered once the source is stored and the web-sized WebP exists; the remaining
 * variants come from `renderRemainingVariants` in the background. Videos are not re-encoded: their
 * container is rewritten by ffmpeg without metadata (`rewriteWithoutMetadata`), or they are refused.
 */
export async function ingestUpload(
  storage: MediaStorage,
  file: ReceivedFile,
  opts: { ffmpegPath: string | null },
): Promise<IngestedMedia> {
  const sniffed = sniff(file.head);
  if (sniffed === 'image/heic') throw heicUnsupported();
  if (sniffed === 'video/quicktime' || sniffed === 'video/x-matroska') throw quicktimeUnsupported();
  if (!sniffed || sniffed !== file.declaredType) throw mismatch();

  const id = crypto.randomUUID();
  if (sniffed === 'video/mp4' || sniffed === 'video/webm') {
    const key = `${id}/original`;
    const clean = `${file.path}.clean`;
    const { sizeBytes, sha256: hash } = await rewriteWithoutMetadata(
      opts.ffmpegPath,
      file.path,
      clean,
      sniffed,
    );
    try {
      await storage.putFile(key, clean);
    } finally {
      await fs.rm(clean, { force: true });
    }
    return {
      id,
      kind: 'video',
      contentType: sniffed,
      sizeBytes,
      sha256: hash,
      width: null,
      height: null,
      sourceKey: null,
      variants: [
        {
          name: 'original',
          contentType: sniffed,
          width: null,
          height: null,
          sizeBytes,
          sha256: hash,
          storageKey: key,
        },
      ],
    };
  }

  // The image process reads the upload itself: its bytes never pass through this process.
  const input = { path: file.path };
  const { width, height } = await probeImage(input, sniffed as ImageType);
  const web = await renderVariant(input, webWidth(width), 'webp');
  const webVariant: StoredVariant = {
    name: variantName(web.width, 'webp'),
    contentType: 'image/webp',
    width: web.width,
    height: web.height,
    sizeBytes: web.data.length,
    sha256: sha256(web.data),
    storageKey: `${id}/${variantName(web.width, 'webp')}`,
  };
  try {
    await storage.put(webVariant.storageKey, web.data);
    await storage.putFile(`${id}/source`, file.path);
  } catch (err) {
    await storage.deletePrefix(id).catch(() => {});
    throw err;
  }
  return {
    id,
    kind: 'image',
    contentType: sniffed,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
    width,
    height,
    sourceKey: `${id}/source`,
    variants: [webVariant],
  };
}

/** Every variant an image of this width gets: each width as WebP and as JPEG. */
export function plannedVariants(
  originalWidth: number,
): { width: number; format: VariantFormat; name: string }[] {
  return variantWidths(originalWidth).flatMap((width) =>
    (['webp', 'jpg'] as const).map((format) => ({ width, format, name: variantName(width, format) })),
  );
}

/** Renders and stores the variants not yet in `existing`; returns the new ones. */
export async function renderRemainingVariants(
  storage: MediaStorage,
  media: { id: string; sourceKey: string; width: number },
  existing: ReadonlySet<string>,
): Promise<StoredVariant[]> {
  const todo = plannedVariants(media.width).filter((v) => !existing.has(v.name));
  if (todo.length === 0) return [];
  const input = storage.localPath
    ? { path: storage.localPath(media.sourceKey) }
    : await storage.read(media.sourceKey);
  const made: StoredVariant[] = [];
  for (const v of todo) {
    const out = await renderVariant(input, v.width, v.format);
    const storageKey = `${media.id}/${v.name}`;
    await storage.put(storageKey, out.data);
    made.push({
      name: v.name,
      contentType: variantContentType(v.format),
      width: out.width,
      height: out.height,
      sizeBytes: out.data.length,
      sha256: sha256(out.data),
      storageKey,
    });
  }
  return made;
}
