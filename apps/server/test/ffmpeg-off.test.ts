/**
 * A server without ffmpeg (FFMPEG_PATH names a file that is not there): nothing reads videos or music, so
 * their uploads and the presentation's MP4 are refused in Dutch with nothing stored; photos still work; the
 * screens learn it from the reads they already do, and the start log lists it among what is switched off.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg, loadConfig, switchedOff } from '../src/config.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, form, jpeg, video } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
const missing = '/nergens/ffmpeg';

beforeAll(async () => {
  t = await createTestApp({ FFMPEG_PATH: missing });
  c = await cast(t, 'ffmpeg-off');
});
afterAll(async () => t?.close());

const count = async (table: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
const stored = async () =>
  (await fs.readdir(path.join(t.dataDir, 'media')).catch(() => [] as string[])).length;
const upload = async (url: string, fields: Record<string, string>, file: { data: Buffer; type: string }) => {
  const body = await form(fields, { ...file, name: 'bestand' });
  return t.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...c.owner.headers, ...body.headers },
  });
};
const off = {
  code: 'VIDEO_AND_MUSIC_OFF',
  message: 'Video’s en muziek uploaden kan nu niet: deze server heeft geen ffmpeg. Foto’s uploaden kan wel.',
};

describe('without ffmpeg', () => {
  it('finds none, and the start log says video and music are off', () => {
    expect(t.config.ffmpegPath).toBeNull();
    expect(switchedOff(t.config).find((l) => l.startsWith('video en muziek'))).toContain(missing);
    // With Debian's ffmpeg (this machine has it) nothing of the kind is said.
    const withIt = loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir });
    expect(withIt.ffmpegPath).toBe(findFfmpeg(undefined));
    expect(withIt.ffmpegPath).not.toBeNull();
    expect(switchedOff(withIt).some((l) => l.startsWith('video en muziek'))).toBe(false);
  });

  it('takes FFMPEG_PATH only when it can be run; else Debian’s, else the first `ffmpeg` on PATH', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ffmpeg-path-'));
    try {
      const fake = path.join(dir, 'ffmpeg');
      await fs.writeFile(fake, '#!/bin/sh\n', { mode: 0o644 });
      expect(findFfmpeg(fake)).toBeNull();
      await fs.chmod(fake, 0o755);
      expect(findFfmpeg(fake)).toBe(fake);
      expect(findFfmpeg(missing)).toBeNull();
      // /usr/bin/ffmpeg comes first when it is there; the PATH entry is the fallback.
      expect(findFfmpeg(undefined, dir)).toBe('/usr/bin/ffmpeg');
      expect(findFfmpeg(undefined, `relative:${dir}`, missing)).toBe(fake);
      expect(findFfmpeg(undefined, 'relative', missing)).toBeNull();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('a video upload answers 415 in Dutch and stores nothing; a photo is still taken', async () => {
    const before = { rows: await count('media'), files: await stored() };
    const res = await upload(
      '/core/memorial-media',
      { memorialId: c.privateId },
      { data: await video('video/mp4'), type: 'video/mp4' },
    );
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject(off);
    expect({ rows: await count('media'), files: await stored() }).toEqual(before);
    const photo = await upload(
      '/core/memorial-media',
      { memorialId: c.privateId },
      { data: await jpeg(), type: 'image/jpeg' },
    );
    expect(photo.statusCode, photo.body).toBe(201);
  });

  it('music answers 415 and the MP4 503, both in Dutch; the reads the screens use say it is off', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ffmpeg-off-'));
    const mp3 = path.join(dir, 'lied.mp3');
    try {
      // Made by this machine's ffmpeg; the server under test has none.
      await promisify(execFile)(findFfmpeg(undefined)!, [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'libmp3lame', mp3],
      ]);
      const music = await upload(
        `/core/memorial/${c.privateId}/presentation/music`,
        {},
        { data: await fs.readFile(mp3), type: 'audio/mpeg' },
      );
      expect(music.statusCode).toBe(415);
      expect(music.json()).toMatchObject(off);
      expect(await count('presentation_music')).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    const render = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${c.privateId}/presentation/video`,
      headers: c.owner.headers,
      payload: { resolution: '720p' },
    });
    expect(render.statusCode).toBe(503);
    expect(render.json()).toMatchObject(off);
    expect(await count('presentation_videos')).toBe(0);

    const info = await t.app.inject({
      url: `/core/memorial/${c.privateId}/presentation`,
      headers: c.owner.headers,
    });
    expect(info.json()).toMatchObject({ videoAndMusic: false });
    const plan = await t.app.inject({ url: `/core/memorial/${c.privateId}/plan`, headers: c.owner.headers });
    expect(plan.json()).toMatchObject({ videoAndMusic: false });
  });
});
