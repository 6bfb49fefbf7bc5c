import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { errorCodes, videoAndMusicOffMessage } from '@aandenken/contract';
import { findFfmpeg } from '../../config.ts';
import { AppError } from '../errors.ts';

/** The ffmpeg to use (`findFfmpeg` in config.ts): FFMPEG_PATH, else Debian's, else `ffmpeg` on PATH; null: none. */
export function resolveFfmpeg(configured?: string): string | null {
  return findFfmpeg(configured);
}

/** Without ffmpeg nothing reads videos or music: their uploads (415) and the MP4 export (503) are off. */
export const videoAndMusicOff = (status: 415 | 503 = 415) =>
  new AppError(status, errorCodes.videoAndMusicOff, videoAndMusicOffMessage);

export const videoUnreadable = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Deze video kunnen we niet verwerken: het bestand is beschadigd of geen geldige MP4- of WebM-video. Kies een andere video.',
    { media: 'Video onleesbaar' },
  );

const REWRITE_TIMEOUT_MS = 120_000;

/**
 * Rewrites a video's container without re-encoding (`-c copy`, seconds even for 100 MB): only its
 * video and audio streams, with no metadata (title, GPS location, recording device, dates), no chapters,
 * no data or subtitle streams, and no encoder tag. A file ffmpeg cannot read or rewrite is refused
 * (415) and nothing is kept. Returns the rewritten file at `output` with its size and hash.
 */
export async function rewriteWithoutMetadata(
  ffmpegPath: string | null,
  input: string,
  output: string,
  type: 'video/mp4' | 'video/webm',
): Promise<{ sizeBytes: number; sha256: string }> {
  if (!ffmpegPath) throw videoAndMusicOff();
  const format = type === 'video/mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'webm'];
  const args = [
    ['-nostdin', '-hide_banner', '-v', 'error', '-y', '-i', input],
    ['-map', '0:v', '-map', '0:a?', '-map_metadata', '-1', '-map_chapters', '-1', '-dn', '-sn'],
    ['-c', 'copy', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'],
    [...format, output],
  ].flat();
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(ffmpegPath, args, { timeout: REWRITE_TIMEOUT_MS, maxBuffer: 1024 * 1024 }, (err) =>
        err ? reject(err) : resolve(),
      );
    });
    const { size } = await fs.stat(output);
    if (size === 0) throw new Error('empty output');
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(output)) hash.update(chunk as Buffer);
    return { sizeBytes: size, sha256: hash.digest('hex') };
  } catch {
    await fs.rm(output, { force: true });
    throw videoUnreadable();
  }
}
