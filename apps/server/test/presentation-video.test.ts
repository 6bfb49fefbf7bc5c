/**
 * The memory presentation (docs/keepsakes.md): music for every plan (checked by its bytes, its
 * codec and a full decode, stored without metadata, served signed), the Premium builder, and the MP4
 * export rendered by the background job, probed for its duration, resolution and streams, and mailed.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia, sniffAudio } from '../src/lib/media/audio.ts';
import { resolveFfmpeg } from '../src/lib/media/video.ts';
import { createTestApp, forgeSignature, type TestContext } from './helpers.ts';
import { form, jpeg, png } from './fixtures/content.ts';
import { addMember, auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
let premiumId: string;
let basisId: string;
const photos: string[] = [];
let memoryId: string;
const ffmpeg = resolveFfmpeg()!;
const sounds: Record<string, Buffer> = {};

/** A real two-second tone, with an ID3/metadata title, in the given format. */
async function tone(args: string[], ext: string) {
  const file = path.join(t.dataDir, `tone.${ext}`);
  await new Promise<void>((resolve, reject) =>
    execFile(
      ffmpeg,
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=2',
        '-metadata',
        'title=Geheime titel',
        ...args,
        file,
      ],
      (err) => (err ? reject(err) : resolve()),
    ),
  );
  return fs.readFile(file);
}

const call = (
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  token: string | null,
  payload?: object,
) => t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });

async function uploadMusic(
  memorialId: string,
  token: string | null,
  data: Buffer,
  type: string,
  name = 'lied.mp3',
) {
  const body = await form({}, { data, type, name });
  return t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/presentation/music`,
    headers: { ...auth(token), ...body.headers },
    payload: body.payload,
  });
}

const pathOf = (url: string) => url.replace(t.config.API_URL, '');

beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
  premiumId = (await createMemorial(t, u.owner, { status: 'active' })).id;
  basisId = (await createMemorial(t, u.owner, { status: 'active', visibility: 'public' })).id;
  await t.db.query(
    `UPDATE memorial_plans SET plan = 'basis', paid_until = now() + interval '300 days' WHERE memorial_id = $1`,
    [basisId],
  );
  await t.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [
    premiumId,
  ]);
  await addMember(t, premiumId, u.editor, 'editor');
  await addMember(t, premiumId, u.contributor, 'contributor');
  for (const [w, h] of [
    [800, 600],
    [600, 900],
  ] as const) {
    const body = await form({ memorialId: premiumId }, { data: await jpeg(w, h), type: 'image/jpeg' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/core/memorial-media',
      headers: { ...auth(u.owner.token), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    photos.push(res.json().id);
  }
  const concept = await call('POST', '/core/memories/concept', u.owner.token, {
    memorialId: premiumId,
    yearLabel: '1975',
    text: 'Elke zomer naar Texel, met de fietsen op het dak.',
    membersOnly: false,
  });
  memoryId = concept.json().id;
  expect((await call('POST', '/core/memories/publish', u.owner.token, { id: memoryId })).statusCode).toBe(
    200,
  );
  sounds.mp3 = await tone(['-c:a', 'libmp3lame'], 'mp3');
  sounds.aac = await tone(['-c:a', 'aac', '-f', 'adts'], 'aac');
  sounds.m4a = await tone(['-c:a', 'aac', '-f', 'mp4'], 'm4a');
  sounds.ogg = await tone(['-c:a', 'libvorbis'], 'ogg');
  await t.app.deps.queue.idle();
}, 120_000);
afterAll(async () => t?.close());

describe('music (every plan)', () => {
  it('recognises MP3, AAC and Ogg by their first bytes', () => {
    expect(sniffAudio(sounds.mp3!)).toBe('audio/mpeg');
    expect(sniffAudio(sounds.aac!)).toBe('audio/aac');
    expect(sniffAudio(sounds.m4a!)).toBe('audio/mp4');
    expect(sniffAudio(sounds.ogg!)).toBe('audio/ogg');
  });

  it('stores checked music without its tags and plays it to whoever may see the page', async () => {
    const res = await uploadMusic(premiumId, u.editor.token, sounds.mp3!, 'audio/mpeg');
    expect(res.statusCode).toBe(200);
    const music = res.json();
    expect(music).toMatchObject({ contentType: 'audio/mpeg', fileName: 'lied.mp3' });
    expect(music.durationMs).toBeGreaterThan(1900);
    expect(music.durationMs).toBeLessThan(2200);
    // Private page: a signed link, which works without signing in.
    expect(music.url).toMatch(/\?exp=\d+&sig=/);
    const file = await t.app.inject({ method: 'GET', url: pathOf(music.url) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    expect(file.rawPayload.subarray(0, 3).toString('latin1')).not.toBe('ID3');
    expect(file.rawPayload.includes(Buffer.from('Geheime titel'))).toBe(false);
    expect(sounds.mp3!.includes(Buffer.from('Geheime titel'))).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: pathOf(music.url),
      headers: { range: 'bytes=0-99' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(100);
    const tail = await t.app.inject({
      method: 'GET',
      url: pathOf(music.url),
      headers: { range: 'bytes=-500' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(file.rawPayload.subarray(file.rawPayload.length - 500))).toBe(true);
    const past = await t.app.inject({
      method: 'GET',
      url: pathOf(music.url),
      headers: { range: `bytes=${file.rawPayload.length}-` },
    });
    expect(past.statusCode).toBe(416);
    // Without the signature only members get it; a stranger's answer is as for a missing file.
    const bare = pathOf(music.url).split('?')[0]!;
    expect((await call('GET', bare, u.stranger.token)).statusCode).toBe(404);
    expect((await call('GET', bare, u.contributor.token)).statusCode).toBe(200);
    // The presentation hands it out with the rest.
    const info = await call('GET', `/core/memorial/${premiumId}/presentation`, u.contributor.token);
    expect(info.json()).toMatchObject({ music: { id: music.id }, advancedVideo: true, canEdit: false });
  });

  it('takes AAC (also in M4A) and Ogg, and replaces the earlier music', async () => {
    for (const [data, type, stored] of [
      [sounds.aac!, 'audio/aac', 'audio/mp4'],
      [sounds.m4a!, 'audio/mp4', 'audio/mp4'],
      [sounds.ogg!, 'audio/ogg', 'audio/ogg'],
    ] as const) {
      const res = await uploadMusic(premiumId, u.owner.token, data, type, 'x.bin');
      expect(res.statusCode, type).toBe(200);
      expect(res.json().contentType).toBe(stored);
    }
    const { rows } = await t.db.query('SELECT 1 FROM presentation_music WHERE memorial_id = $1', [premiumId]);
    expect(rows).toHaveLength(1);
  });

  it('refuses what is not music, in Dutch, and keeps nothing', async () => {
    const before = await t.db.query('SELECT id FROM presentation_music WHERE memorial_id = $1', [premiumId]);
    const picture = await uploadMusic(premiumId, u.owner.token, await png(), 'audio/mpeg');
    expect(picture.statusCode).toBe(415);
    expect(picture.json().message).toMatch(/MP3, AAC/);
    const broken = Buffer.concat([
      Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000'),
      Buffer.alloc(4000, 7),
    ]);
    expect((await uploadMusic(premiumId, u.owner.token, broken, 'audio/mpeg')).statusCode).toBe(415);
    // Real music declared as a picture is refused before a byte is kept.
    const declaredImage = await uploadMusic(premiumId, u.owner.token, sounds.mp3!, 'image/png');
    expect(declaredImage.statusCode).toBe(415);
    expect((await uploadMusic(premiumId, u.contributor.token, sounds.mp3!, 'audio/mpeg')).statusCode).toBe(
      403,
    );
    expect((await uploadMusic(premiumId, null, sounds.mp3!, 'audio/mpeg')).statusCode).toBe(401);
    const after = await t.db.query('SELECT id FROM presentation_music WHERE memorial_id = $1', [premiumId]);
    expect(after.rows).toEqual(before.rows);
  });

  it('is allowed on Basis, and removable', async () => {
    expect((await uploadMusic(basisId, u.owner.token, sounds.mp3!, 'audio/mpeg')).statusCode).toBe(200);
    const info = await call('GET', `/core/memorial/${basisId}/presentation`, null);
    expect(info.statusCode).toBe(200);
    // A public page: an open link.
    expect(info.json().music.url).not.toContain('sig=');
    expect(info.json()).toMatchObject({ advancedVideo: false, settings: null });
    expect(
      (await call('DELETE', `/core/memorial/${basisId}/presentation/music`, u.owner.token)).statusCode,
    ).toBe(204);
    expect((await call('GET', `/core/memorial/${basisId}/presentation`, null)).json().music).toBeNull();
    expect(
      (await call('DELETE', `/core/memorial/${basisId}/presentation/music`, u.owner.token)).statusCode,
    ).toBe(404);
  });
});

describe('Premium parts', () => {
  it('refuses each Premium part on a Basis page', async () => {
    const settings = await call('PUT', `/core/memorial/${basisId}/presentation/settings`, u.owner.token, {
      slides: [{ kind: 'photo', id: photos[0] }],
      secondsPerSlide: 5,
    });
    expect(settings.statusCode).toBe(403);
    expect(settings.json()).toMatchObject({
      code: 'PLAN_FEATURE_UNAVAILABLE',
      message: expect.stringMatching(/Premium/),
    });
    for (const [method, url, payload] of [
      ['DELETE', `/core/memorial/${basisId}/presentation/settings`, undefined],
      ['GET', `/core/memorial/${basisId}/presentation/video`, undefined],
      ['POST', `/core/memorial/${basisId}/presentation/video`, { resolution: '720p' }],
    ] as const) {
      const res = await call(method, url, u.owner.token, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('PLAN_FEATURE_UNAVAILABLE');
    }
    const { rows } = await t.db.query('SELECT 1 FROM presentation_videos WHERE memorial_id = $1', [basisId]);
    expect(rows).toHaveLength(0);
  });

  it('saves the chosen slides with captions, time, title and closing; checks them', async () => {
    const url = `/core/memorial/${premiumId}/presentation/settings`;
    const good = {
      slides: [
        { kind: 'photo', id: photos[1], caption: '  Op het strand  ' },
        { kind: 'memory', id: memoryId },
        { kind: 'photo', id: photos[0] },
      ],
      secondsPerSlide: 5,
      titleText: 'Voor opa',
      closingText: 'Dank je wel',
    };
    const saved = await call('PUT', url, u.editor.token, good);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      slides: [
        { kind: 'photo', id: photos[1], caption: 'Op het strand' },
        { kind: 'memory', id: memoryId, caption: null },
        { kind: 'photo', id: photos[0], caption: null },
      ],
      secondsPerSlide: 5,
      titleText: 'Voor opa',
      closingText: 'Dank je wel',
    });
    const info = await call('GET', `/core/memorial/${premiumId}/presentation`, u.contributor.token);
    expect(info.json().settings.slides).toHaveLength(3);

    const bad = [
      { ...good, secondsPerSlide: 2 },
      { ...good, slides: [] },
      { ...good, slides: [{ kind: 'photo', id: crypto.randomUUID() }] },
      { ...good, slides: [good.slides[0], good.slides[0]] },
      { ...good, slides: [{ kind: 'memory', id: photos[0] }] },
      { ...good, titleText: 'x'.repeat(121) },
    ];
    for (const body of bad) {
      const res = await call('PUT', url, u.owner.token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().message).toMatch(/[a-z]/);
    }
    expect((await call('PUT', url, u.contributor.token, good)).statusCode).toBe(403);
    expect((await call('PUT', url, null, good)).statusCode).toBe(401);
    // Still the good one.
    expect(
      (await call('GET', `/core/memorial/${premiumId}/presentation`, u.owner.token)).json().settings
        .titleText,
    ).toBe('Voor opa');
  });

  it('renders an MP4 (H.264/AAC, 720p) in the background, shows progress, and mails the link', async () => {
    // A tiny export: four slides (title, two photos, closing) of one second each.
    await t.db.query(
      `UPDATE presentation_settings SET seconds_per_slide = 1,
              slides = jsonb_build_array(jsonb_build_object('kind', 'photo', 'id', $2::text, 'caption', 'Zomer 1975'),
                                         jsonb_build_object('kind', 'photo', 'id', $3::text, 'caption', null))
        WHERE memorial_id = $1`,
      [premiumId, photos[0], photos[1]],
    );
    const url = `/core/memorial/${premiumId}/presentation/video`;
    expect((await call('GET', url, u.owner.token)).json()).toMatchObject({ status: 'none' });
    const started = await call('POST', url, u.editor.token, { resolution: '720p' });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'queued', resolution: '720p', progress: 0 });
    // A second request while it renders gives the same one back.
    expect((await call('POST', url, u.owner.token, { resolution: '1080p' })).json().resolution).toBe('720p');
    await t.app.deps.queue.idle();
    const state = (await call('GET', url, u.owner.token)).json();
    expect(state).toMatchObject({
      status: 'ready',
      progress: 1,
      resolution: '720p',
      durationMs: 4000,
      error: null,
    });

    const file = await t.app.inject({ method: 'GET', url: pathOf(state.downloadUrl) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers['content-disposition']).toMatch(/attachment; filename="presentatie-.*-720p\.mp4"/);
    const out = path.join(t.dataDir, 'probe.mp4');
    await fs.writeFile(out, file.rawPayload);
    const probe = await probeMedia(ffmpeg, out);
    expect(probe.durationMs).toBeGreaterThanOrEqual(3900);
    expect(probe.durationMs).toBeLessThanOrEqual(4200);
    expect(probe.video).toEqual([{ codec: 'h264', pixelFormat: 'yuv420p', width: 1280, height: 720 }]);
    expect(probe.audio).toEqual([{ codec: 'aac' }]);
    // faststart: the index (moov) before the media data (mdat).
    expect(file.rawPayload.indexOf('moov')).toBeLessThan(file.rawPayload.indexOf('mdat'));

    const mail = await t.smtp.waitFor((m) => m.to.includes(u.editor.email) && m.subject.includes('video'));
    expect(mail.text).toContain(state.downloadUrl);
    // A changed signature is refused.
    const forged = forgeSignature(pathOf(state.downloadUrl));
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
  }, 180_000);

  it('shows a Dutch message when the video cannot be made, and keeps no file', async () => {
    // A photo whose stored files are gone: every attempt fails.
    await fs.rm(path.join(t.dataDir, 'media', photos[1]!), { recursive: true, force: true });
    const url = `/core/memorial/${premiumId}/presentation/video`;
    expect((await call('POST', url, u.owner.token, { resolution: '720p' })).statusCode).toBe(202);
    let state = (await call('GET', url, u.owner.token)).json();
    // The retry waits a few seconds (the queue's backoff); ask until the last attempt has failed.
    for (let i = 0; i < 60 && state.status !== 'failed'; i++) {
      await t.app.deps.queue.idle();
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = (await call('GET', url, u.owner.token)).json();
    }
    expect(state).toMatchObject({ status: 'failed', downloadUrl: null });
    expect(state.error).toMatch(/De video kon niet worden gemaakt/);
    const { rows } = await t.db.query<{ storage_key: string | null }>(
      'SELECT storage_key FROM presentation_videos WHERE memorial_id = $1',
      [premiumId],
    );
    expect(rows).toEqual([{ storage_key: null }]);
  }, 120_000);
});
