import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { errorCodes, PRESENTATION_MUSIC_MAX_SECONDS } from '@aandenken/contract';
import { AppError } from '../errors.ts';
import { videoAndMusicOff } from './video.ts';

/**
 * Music for the presentation (docs/keepsakes.md): MP3, AAC (ADTS or in an MP4/M4A container) and Ogg
 * (Vorbis, Opus). The type comes from the first bytes, the codec from ffmpeg's reading of the file, and
 * the whole file must decode; then it is rewritten without re-encoding and without metadata (ID3 tags,
 * cover pictures, comments).
 */
export type SniffedAudio = 'audio/mpeg' | 'audio/aac' | 'audio/mp4' | 'audio/ogg';
/** What is stored: ADTS AAC goes into an MP4 container. */
export type StoredAudioType = 'audio/mpeg' | 'audio/mp4' | 'audio/ogg';

export function sniffAudio(head: Buffer): SniffedAudio | null {
  if (head.length >= 4 && head.subarray(0, 4).toString('latin1') === 'OggS') return 'audio/ogg';
  if (head.length >= 3 && head.subarray(0, 3).toString('latin1') === 'ID3') return 'audio/mpeg';
  if (head.length >= 12 && head.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = head.subarray(8, 12).toString('latin1');
    // Pictures in the same box format (HEIC, AVIF) are no music.
    if (/^(heic|heix|mif1|msf1|avif|avis|qt {2})$/.test(brand)) return null;
    return 'audio/mp4';
  }
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) {
    const layer = (head[1]! >> 1) & 0x03;
    if (layer === 0 && (head[1]! & 0xf0) === 0xf0) return 'audio/aac'; // ADTS
    if (layer !== 0) return 'audio/mpeg'; // MPEG audio frame without a tag
  }
  return null;
}

const codecsFor: Record<SniffedAudio, readonly string[]> = {
  'audio/mpeg': ['mp3'],
  'audio/aac': ['aac'],
  'audio/mp4': ['aac'],
  'audio/ogg': ['vorbis', 'opus'],
};

export interface MediaProbe {
  durationMs: number | null;
  audio: { codec: string }[];
  video: { codec: string; width: number; height: number; pixelFormat: string | null }[];
}

/** What ffmpeg reads from a file's header (`ffmpeg -i`), without a separate ffprobe. */
export async function probeMedia(ffmpegPath: string, file: string): Promise<MediaProbe> {
  const stderr = await new Promise<string>((resolve) => {
    execFile(
      ffmpegPath,
      ['-nostdin', '-hide_banner', '-i', file],
      { timeout: 30_000, maxBuffer: 1024 * 1024 },
      // ffmpeg exits 1 without an output file; what it read is on stderr either way.
      (_err, _out, err) => resolve(String(err)),
    );
  });
  const d = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const durationMs = d ? Math.round((Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3])) * 1000) : null;
  const audio: MediaProbe['audio'] = [];
  const video: MediaProbe['video'] = [];
  for (const line of stderr.split('\n')) {
    const a = /Stream #\d+:\d+.*?: Audio: (\w+)/.exec(line);
    if (a) audio.push({ codec: a[1]! });
    const v =
      /Stream #\d+:\d+.*?: Video: (\w+)(?: \([^)]*\))*(?:, (\w+)(?:\([^)]*\))?)?.*?, (\d{2,5})x(\d{2,5})/.exec(
        line,
      );
    if (v) video.push({ codec: v[1]!, pixelFormat: v[2] ?? null, width: Number(v[3]), height: Number(v[4]) });
  }
  return { durationMs, audio, video };
}

export const audioUnreadable = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Deze muziek kunnen we niet gebruiken: het bestand is beschadigd of geen MP3-, AAC- of Ogg-bestand. Kies een ander bestand.',
    { media: 'Muziek onleesbaar' },
  );
export const audioUnsupported = () =>
  new AppError(
    415,
    errorCodes.unsupportedMediaType,
    'Dit bestandstype wordt niet ondersteund. Kies muziek als MP3, AAC (M4A) of Ogg.',
    { media: 'Bestandstype niet ondersteund' },
  );

const CHECK_TIMEOUT_MS = 120_000;

/**
 * Checks an uploaded music file and writes a clean copy to `output`: the first bytes must name a music
 * type, ffmpeg must find one audio stream of the matching codec, at most PRESENTATION_MUSIC_MAX_SECONDS
 * long, and the whole stream must decode without an error. The copy keeps the audio as it is (`-c copy`)
 * without metadata or pictures. Anything else is 415 and nothing is kept.
 */
export async function checkAndCleanAudio(
  ffmpegPath: string | null,
  input: { path: string; head: Buffer },
  output: string,
): Promise<{ contentType: StoredAudioType; durationMs: number; sizeBytes: number; sha256: string }> {
  const sniffed = sniffAudio(input.head);
  if (!sniffed) throw audioUnsupported();
  if (!ffmpegPath) throw videoAndMusicOff();
  const probe = await probeMedia(ffmpegPath, input.path);
  const stream = probe.audio[0];
  if (!stream || !codecsFor[sniffed].includes(stream.codec) || !probe.durationMs) throw audioUnreadable();
  if (probe.durationMs > PRESENTATION_MUSIC_MAX_SECONDS * 1000) {
    throw new AppError(
      413,
      errorCodes.payloadTooLarge,
      `Deze muziek is te lang (maximaal ${PRESENTATION_MUSIC_MAX_SECONDS / 60} minuten).`,
      { media: 'Muziek te lang' },
    );
  }
  const contentType: StoredAudioType = sniffed === 'audio/aac' ? 'audio/mp4' : sniffed;
  const format =
    contentType === 'audio/mpeg'
      ? ['-f', 'mp3', '-id3v2_version', '0', '-write_id3v1', '0']
      : contentType === 'audio/mp4'
        ? ['-f', 'mp4', '-movflags', '+faststart']
        : ['-f', 'ogg'];
  const args = [
    ['-nostdin', '-hide_banner', '-v', 'error', '-xerror', '-y', '-i', input.path],
    // The clean copy: the first audio stream only, no metadata, no chapters, no cover picture.
    ['-map', '0:a:0', '-map_metadata', '-1', '-map_chapters', '-1', '-c', 'copy'],
    ['-fflags', '+bitexact', '-flags:a', '+bitexact', ...format, output],
    // And a full decode of the same stream, thrown away: a damaged file fails here.
    ['-map', '0:a:0', '-f', 'null', '-'],
  ].flat();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(ffmpegPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let errors = '';
      child.stderr.on('data', (c: Buffer) => {
        if (errors.length < 4000) errors += c.toString();
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_TIMEOUT_MS);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0 && errors.trim() === '') resolve();
        else reject(new Error(`ffmpeg ${code}: ${errors.slice(0, 300)}`));
      });
    });
    const { size } = await fs.stat(output);
    if (size === 0) throw new Error('empty output');
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(output)) hash.update(chunk as Buffer);
    return { contentType, durationMs: probe.durationMs, sizeBytes: size, sha256: hash.digest('hex') };
  } catch {
    await fs.rm(output, { force: true });
    throw audioUnreadable();
  }
}
