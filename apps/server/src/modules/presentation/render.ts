import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PresentationResolution } from '@aandenken/contract';
import { escapeHtml } from '../../lib/mail-format.ts';

/**
 * The MP4 export of the presentation (docs/keepsakes.md): every slide becomes a still of the video's
 * size (photos by sharp, fitted on black with their caption; text slides drawn as SVG and rendered by
 * sharp), then ffmpeg joins the stills with the concat demuxer and the music (looped, faded out at the
 * end) or silence, encoding H.264 (yuv420p, 25 fps) and AAC into an MP4 with the index at the front.
 */
export type RenderSlide =
  | { kind: 'photo'; image: Buffer; caption: string | null }
  | { kind: 'text'; lines: { text: string; size: 'large' | 'medium' | 'small'; italic?: boolean }[] };

export const resolutionSize: Record<PresentationResolution, { width: number; height: number }> = {
  '1080p': { width: 1920, height: 1080 },
  '720p': { width: 1280, height: 720 },
};

export interface RenderOptions {
  ffmpegPath: string;
  slides: RenderSlide[];
  secondsPerSlide: number;
  resolution: PresentationResolution;
  music: string | null;
  workDir: string;
  output: string;
  /** ffmpeg is killed after this long. */
  timeoutMs: number;
  /** `-threads` for the encoder. */
  threads: number;
  /** The address-space limit of the ffmpeg process (ulimit -v). */
  memoryMb: number;
  /** 0..1; called often, the caller throttles. */
  onProgress: (fraction: number) => void;
}

export class RenderTimeout extends Error {
  constructor() {
    super('render timed out');
  }
}

/** Words onto lines of at most `max` characters (a word longer than that gets a line of its own). */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > max) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push(line);
  }
  return lines;
}

const fontSizes = { large: 0.085, medium: 0.05, small: 0.038 } as const;

/** A text slide as SVG: lines centred on black, serif, wrapped to the width. */
export function textSlideSvg(slide: Extract<RenderSlide, { kind: 'text' }>, width: number, height: number) {
  const rows: { text: string; px: number; italic: boolean }[] = [];
  for (const line of slide.lines) {
    const px = Math.round(height * fontSizes[line.size]);
    // Serif glyphs average about half the font size in width.
    const max = Math.max(10, Math.floor((width * 0.84) / (px * 0.5)));
    for (const text of wrapText(line.text, max)) rows.push({ text, px, italic: line.italic ?? false });
  }
  const gap = (px: number) => Math.round(px * 1.35);
  const total = rows.reduce((sum, r) => sum + gap(r.px), 0);
  let y = Math.round((height - total) / 2);
  const texts = rows.map((r) => {
    y += gap(r.px);
    return `<text x="50%" y="${y - Math.round(r.px * 0.35)}" font-size="${r.px}"${r.italic ? ' font-style="italic"' : ''}>${escapeHtml(r.text)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><g fill="#fff" font-family="DejaVu Serif, Georgia, serif" text-anchor="middle">${texts.join('')}</g></svg>`;
}

async function still(slide: RenderSlide, width: number, height: number): Promise<Buffer> {
  // Loaded when a video is made: a server that makes none keeps libvips out of its memory.
  const { default: sharp } = await import('sharp');
  if (slide.kind === 'text') {
    return sharp(Buffer.from(textSlideSvg(slide, width, height)))
      .flatten({ background: '#000' })
      .jpeg({ quality: 90 })
      .toBuffer();
  }
  let img = sharp(slide.image, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize(width, height, { fit: 'contain', background: '#000' })
    .flatten({ background: '#000' });
  if (slide.caption) {
    const px = Math.round(height * 0.04);
    const lines = wrapText(slide.caption, Math.floor((width * 0.84) / (px * 0.52))).slice(0, 3);
    const band = Math.round(px * 1.5 * lines.length + px);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${band}"><rect width="100%" height="100%" fill="#000" fill-opacity="0.55"/><g fill="#fff" font-family="DejaVu Sans, Arial, sans-serif" font-size="${px}" text-anchor="middle">${lines
      .map((l, i) => `<text x="50%" y="${Math.round(px * 1.5 * (i + 1))}">${escapeHtml(l)}</text>`)
      .join('')}</g></svg>`;
    img = sharp(await img.toBuffer()).composite([{ input: Buffer.from(svg), gravity: 'south' }]);
  }
  return img.jpeg({ quality: 90 }).toBuffer();
}

/** One render at a time in this process: a second waits for the first (the job queue runs one job anyway). */
let queueTail: Promise<unknown> = Promise.resolve();
export function renderOneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queueTail.then(work, work);
  queueTail = run.catch(() => undefined);
  return run;
}

/** Renders the video to `output`; returns its duration in ms. The stills go to `workDir` (the caller removes it). */
export async function renderPresentationVideo(o: RenderOptions): Promise<{ durationMs: number }> {
  const { width, height } = resolutionSize[o.resolution];
  await fs.mkdir(o.workDir, { recursive: true });
  const names: string[] = [];
  for (const [i, slide] of o.slides.entries()) {
    const name = `slide-${String(i).padStart(4, '0')}.jpg`;
    await fs.writeFile(path.join(o.workDir, name), await still(slide, width, height));
    names.push(name);
    // Preparing the stills is the first tenth of the work.
    o.onProgress(((i + 1) / o.slides.length) * 0.1);
  }
  const seconds = o.slides.length * o.secondsPerSlide;
  const list = [
    'ffconcat version 1.0',
    ...names.flatMap((n) => [`file '${n}'`, `duration ${o.secondsPerSlide}`]),
    // The concat demuxer needs the last file once more for its duration to count.
    `file '${names.at(-1)!}'`,
  ].join('\n');
  const listPath = path.join(o.workDir, 'slides.txt');
  await fs.writeFile(listPath, `${list}\n`);
  const fade = Math.min(3, seconds / 3);
  const audioIn = o.music
    ? ['-stream_loop', '-1', '-i', o.music]
    : ['-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo'];
  const args = [
    ['-nostdin', '-hide_banner', '-v', 'error', '-y'],
    ['-f', 'concat', '-safe', '0', '-i', listPath, ...audioIn],
    ['-map', '0:v:0', '-map', '1:a:0', '-map_metadata', '-1'],
    ['-vf', `fps=25,scale=${width}:${height},setsar=1,format=yuv420p`, '-filter_threads', '1'],
    ['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'stillimage', '-crf', '22', '-r', '25'],
    ['-threads', String(o.threads)],
    ['-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2'],
    ['-af', `afade=t=out:st=${(seconds - fade).toFixed(2)}:d=${fade.toFixed(2)}`],
    ['-t', String(seconds), '-movflags', '+faststart', '-f', 'mp4'],
    ['-progress', 'pipe:1', '-nostats', o.output],
  ].flat();
  await new Promise<void>((resolve, reject) => {
    // The address-space limit through the shell's ulimit, then ffmpeg in its place (exec).
    const child = spawn(
      '/bin/sh',
      ['-c', `ulimit -v ${Math.round(o.memoryMb * 1024)} && exec "$0" "$@"`, o.ffmpegPath, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs);
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        // This ffmpeg writes microseconds under both names.
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m) o.onProgress(0.1 + 0.9 * Math.min(1, Number(m[1]) / 1e6 / seconds));
      }
    });
    let errors = '';
    child.stderr.on('data', (c: Buffer) => {
      if (errors.length < 4000) errors += c.toString();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new RenderTimeout());
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited ${code}: ${errors.slice(0, 500)}`));
    });
  });
  return { durationMs: seconds * 1000 };
}
