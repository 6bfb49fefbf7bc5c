import {
  MEDIA_IMAGE_MAX_BYTES,
  MEDIA_VIDEO_MAX_BYTES,
  mediaImageTypes,
  mediaVideoTypes,
  videoAndMusicOffMessage,
} from '@aandenken/contract';

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Why a chosen file cannot be uploaded (the server checks again), or null when it may. `videos` false: the
 * server has no ffmpeg, so it takes photos only.
 */
export function fileProblem(file: Pick<File, 'name' | 'type' | 'size'>, videos = true): string | null {
  const type = file.type.toLowerCase();
  if (type === 'image/heic' || type === 'image/heif' || /\.hei[cf]$/i.test(file.name)) {
    return 'HEIC-foto’s kunnen we niet verwerken. Kies bij het delen ‘Meest compatibel’ of zet de foto om naar JPEG.';
  }
  const isImage = (mediaImageTypes as readonly string[]).includes(type);
  const isVideo = (mediaVideoTypes as readonly string[]).includes(type);
  if (!isImage && !isVideo)
    return 'Dit bestandstype wordt niet ondersteund. Kies een foto (JPEG, PNG, WebP, AVIF of GIF) of een video (MP4 of WebM).';
  if (isVideo && !videos) return videoAndMusicOffMessage;
  if (isImage && file.size > MEDIA_IMAGE_MAX_BYTES)
    return `Deze foto is te groot (maximaal ${mb(MEDIA_IMAGE_MAX_BYTES)}).`;
  if (isVideo && file.size > MEDIA_VIDEO_MAX_BYTES)
    return `Deze video is te groot (maximaal ${mb(MEDIA_VIDEO_MAX_BYTES)}).`;
  return null;
}

export interface PickedFile {
  key: string;
  file: File;
  /** An object URL for the preview; revoke it when the file is dropped. */
  preview: string;
  status: 'waiting' | 'uploading' | 'done' | 'failed';
  /** 0 to 1 while uploading. */
  progress: number;
  error?: string;
}

export function pickFiles(
  files: FileList | File[],
  already: number,
  max: number,
  videos = true,
): { picked: PickedFile[]; problems: string[] } {
  const picked: PickedFile[] = [];
  const problems: string[] = [];
  for (const file of Array.from(files)) {
    const problem = fileProblem(file, videos);
    if (problem) {
      problems.push(`${file.name}: ${problem}`);
      continue;
    }
    if (already + picked.length >= max) {
      problems.push(`Je kunt maximaal ${max} foto’s of video’s toevoegen.`);
      break;
    }
    picked.push({
      key: crypto.randomUUID(),
      file,
      preview: URL.createObjectURL(file),
      status: 'waiting',
      progress: 0,
    });
  }
  return { picked, problems };
}
