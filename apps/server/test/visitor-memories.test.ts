import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VISITOR_MEMORY_RATE_LIMIT } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, eventually, form, jpeg, person } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let address = 0;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'visitor');
});
afterAll(async () => {
  await t?.close();
});

const memory = (over: Record<string, unknown> = {}) => ({
  name: 'Bea Bezoeker',
  email: 'bea@example.nl',
  yearLabel: 'Zomer 1990',
  text: 'Piet leerde me vissen aan de Maas.',
  ...over,
});
const submit = (memorialId: string, payload: unknown, remoteAddress = `10.9.0.${++address % 250}`) =>
  t.app.inject({
    method: 'POST',
    url: `/core/memorial/${memorialId}/visitor-memories`,
    payload: payload as object,
    remoteAddress,
  });
// The fixture's pages carry no real access code, so the owner's PUT (which shows it) is proven end to end
// in e2e/tests/visitor-memories.spec.ts; here the setting is written as that PUT writes it. A write straight to
// the database passes the response cache's write barrier by, so wait until the public read shows it (on
// PostgreSQL the cache hears of the change by a notification, a moment later).
const setOn = async (on: boolean) => {
  await t.db.query('UPDATE memorials SET visitor_memories = $2 WHERE id = $1', [c.publicId, on]);
  await eventually(async () => {
    const page = await t.app.inject({ method: 'GET', url: `/core/memorial/${c.publicId}` });
    return page.json().visitorMemories === on;
  });
};
const linkIn = (text: string) => /http\S+\/herinnering\/bevestigen\?\S+/.exec(text)?.[0];
const open = (link: string) => t.app.inject({ method: 'GET', url: link.replace(/^https?:\/\/[^/]+/, '') });
const queue = async () =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/core/memories/query-manage',
      headers: c.owner.headers,
      payload: { memorialId: c.publicId },
    })
  ).json<{ items: { id: string; status: string; text: string; author: { name: string } }[] }>();
const wall = async () =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/core/memories/query-memorial',
      payload: { memorialId: c.publicId },
    })
  ).json<{ items: { id: string; text: string; author: { name: string } }[] }>();
const memoryCount = async () =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memories')).rows[0]!.n;
const withPhoto = async (
  fields: Record<string, string>,
  file: { data: Buffer; type: string; name?: string },
  remoteAddress = `10.9.2.${++address % 250}`,
) => {
  const body = await form(fields, file);
  return t.app.inject({
    method: 'POST',
    url: `/core/memorial/${c.publicId}/visitor-memories`,
    payload: body.payload,
    headers: body.headers,
    remoteAddress,
  });
};
const mediaOf = async (text: string) =>
  (
    await t.db.query<{ id: string; status: string; variants: number }>(
      `SELECT x.id, x.status, (SELECT count(*)::int FROM media_variants v WHERE v.media_id = x.id) AS variants
         FROM media x JOIN memories m ON m.id = x.memory_id WHERE m.body = $1`,
      [text],
    )
  ).rows;
const listDir = async (dir: string) => fs.readdir(dir).catch(() => [] as string[]);

describe('memories from visitors of a public page', () => {
  it('is off by default: no form is offered and the API refuses', async () => {
    const page = await t.app.inject({ method: 'GET', url: `/core/memorial/${c.publicId}` });
    expect(page.json().visitorMemories).toBe(false);
    const before = await memoryCount();
    const res = await submit(c.publicId, memory());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'VISITOR_MEMORIES_OFF' });
    expect(res.json().message).toMatch(/familie/);
    // A private page says nothing about itself, whatever its setting.
    expect((await submit(c.privateId, memory())).statusCode).toBe(404);
    expect(await memoryCount()).toBe(before);
  });

  it('on: mail with a link, confirmed, in the queue, approved, shown with the name and never the address', async () => {
    await setOn(true);
    const page = await t.app.inject({ method: 'GET', url: `/core/memorial/${c.publicId}` });
    expect(page.json().visitorMemories).toBe(true);

    const res = await submit(c.publicId, memory({ email: 'Bea.Flow@Example.nl' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ pending: true });
    const mail = await t.smtp.waitFor((m) => m.to.includes('bea.flow@example.nl'));
    expect(mail.subject).toBe('Bevestig je herinnering voor Piet Testpersoon');
    // Nothing the visitor typed travels in the mail: not the text, not the name.
    expect(mail.text).not.toContain('vissen');
    expect(mail.text).not.toContain('Bea');
    const link = linkIn(mail.text)!;
    expect(link).toBeDefined();

    // Unconfirmed: not in the queue, not on the wall.
    expect((await queue()).items.map((m) => m.text)).not.toContain('Piet leerde me vissen aan de Maas.');
    expect((await wall()).items.map((m) => m.text)).not.toContain('Piet leerde me vissen aan de Maas.');

    const confirmed = await open(link);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['content-type']).toMatch(/text\/html/);
    expect(confirmed.body).toContain(
      'Dank je, je herinnering is bevestigd en wacht op goedkeuring van de familie',
    );
    const pending = (await queue()).items.find((m) => m.text === 'Piet leerde me vissen aan de Maas.')!;
    expect(pending).toMatchObject({ status: 'pending', author: { name: 'Bea Bezoeker' } });
    expect(JSON.stringify(await queue())).not.toContain('bea.flow@example.nl');

    // Single use.
    const again = await open(link);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('Deze link is al gebruikt');

    const approve = await t.app.inject({
      method: 'PUT',
      url: '/core/memories/status',
      headers: c.owner.headers,
      payload: { id: pending.id, status: 'published' },
    });
    expect(approve.statusCode).toBe(200);
    const shown = (await wall()).items.find((m) => m.id === pending.id)!;
    expect(shown).toMatchObject({ author: { name: 'Bea Bezoeker' } });
    expect(JSON.stringify(await wall())).not.toContain('example.nl');
  });

  it('a photo with the memory: decoded, seen by nobody but the family until approved, then on the wall', async () => {
    const text = 'Piet op de fiets, met de hond in de mand.';
    const res = await withPhoto(
      { ...memory({ email: 'foto@example.nl', text }) },
      { data: await jpeg(900, 600), type: 'image/jpeg', name: 'fiets.jpg' },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ pending: true });
    // Stored with the concept, through the members' pipeline: every variant, then ready.
    const [photo] = await eventually(async () => {
      const rows = await mediaOf(text);
      return rows[0]?.status === 'ready' && rows;
    });
    expect(photo!.variants).toBeGreaterThanOrEqual(4);
    const item = (who?: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/core/memory/medias/${photo!.id}`, headers: who });
    const bytes = () => t.app.inject({ method: 'GET', url: `/core/media/${photo!.id}/w640.webp` });
    // Unconfirmed: nobody, the family included.
    expect((await item()).statusCode).toBe(404);
    expect((await item(c.owner.headers)).statusCode).toBe(404);
    expect((await bytes()).statusCode).toBe(404);

    const mail = await t.smtp.waitFor((m) => m.to.includes('foto@example.nl'));
    expect((await open(linkIn(mail.text)!)).statusCode).toBe(200);
    // Waiting for approval: the family sees it in the queue (a signed link), a visitor still nothing.
    const pending = (await queue()).items.find((m) => m.text === text) as unknown as {
      id: string;
      media: { id: string; url: string }[];
    };
    expect(pending.media.map((m) => m.id)).toEqual([photo!.id]);
    expect(pending.media[0]!.url).toMatch(/sig=/);
    expect((await item(c.owner.headers)).statusCode).toBe(200);
    expect((await item()).statusCode).toBe(404);
    expect((await bytes()).statusCode).toBe(404);
    expect(JSON.stringify(await wall())).not.toContain(photo!.id);

    const approve = await t.app.inject({
      method: 'PUT',
      url: '/core/memories/status',
      headers: c.owner.headers,
      payload: { id: pending.id, status: 'published' },
    });
    expect(approve.statusCode).toBe(200);
    const shown = (await wall()).items.find((m) => m.id === pending.id) as unknown as {
      media: { id: string; url: string }[];
    };
    expect(shown.media.map((m) => m.id)).toEqual([photo!.id]);
    const served = await t.app.inject({ method: 'GET', url: new URL(shown.media[0]!.url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
  });

  it('refuses a file that is not a photo, keeps nothing, and a photo goes with its unconfirmed memory', async () => {
    const mediaDir = path.join(t.dataDir, 'media');
    const rows = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM media')).rows[0]!.n;
    const [beforeMemories, beforeMedia, beforeFiles] = [
      await memoryCount(),
      await rows(),
      await listDir(mediaDir),
    ];
    const fields = memory({ email: 'nietfoto@example.nl', text: 'Geen foto.' });
    for (const file of [
      { data: Buffer.from('Dit is geen foto, maar tekst.'), type: 'image/jpeg', name: 'nep.jpg' },
      { data: Buffer.from('%PDF-1.4 nep'), type: 'application/pdf', name: 'brief.pdf' },
    ]) {
      const res = await withPhoto(fields, file);
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(res.json().message).toMatch(/foto/);
    }
    expect(await memoryCount()).toBe(beforeMemories);
    expect(await rows()).toBe(beforeMedia);
    expect(await listDir(mediaDir)).toEqual(beforeFiles);
    expect(await listDir(path.join(t.dataDir, 'tmp'))).toEqual([]);

    // Never confirmed: once its link has expired, the next visitor's memory sweeps it, photo and files too.
    const text = 'Nooit bevestigd, met foto.';
    expect(
      (
        await withPhoto(
          { ...memory({ email: 'vergeten@example.nl', text }) },
          { data: await jpeg(), type: 'image/jpeg' },
        )
      ).statusCode,
    ).toBe(201);
    const [left] = await mediaOf(text);
    await t.db.query(
      `UPDATE memory_visitors SET created_at = now() - interval '9 days'
        WHERE memory_id = (SELECT id FROM memories WHERE body = $1)`,
      [text],
    );
    expect((await submit(c.publicId, memory({ email: 'volgende@example.nl' }))).statusCode).toBe(201);
    expect(await mediaOf(text)).toEqual([]);
    await eventually(async () => (await listDir(path.join(mediaDir, left!.id))).length === 0);
  });

  it('refuses an altered or expired link; an unconfirmed memory never reaches the queue', async () => {
    expect(
      (await submit(c.publicId, memory({ email: 'late@example.nl', text: 'Te laat.' }))).statusCode,
    ).toBe(201);
    const mail = await t.smtp.waitFor((m) => m.to.includes('late@example.nl'));
    const link = linkIn(mail.text)!;
    const altered = await open(link.replace(/sig=./, (s) => (s.endsWith('A') ? 'sig=B' : 'sig=A')));
    expect(altered.statusCode).toBe(400);
    expect(altered.body).toContain('Deze link klopt niet');

    // The same memory with a link that expired (signed the way the server signs, a second ago).
    const id = new URL(link).searchParams.get('id')!;
    const { signedLinks } = await import('../src/lib/signed-links.ts');
    const expiredQuery = await signedLinks(t.db, 'visitor-memory-link-key', 'visitor-memory').sign(
      id,
      Date.now() - 1000,
    );
    const expired = await t.app.inject({
      method: 'GET',
      url: `/herinnering/bevestigen?id=${id}&${expiredQuery}`,
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('Deze link is verlopen');
    expect((await queue()).items.map((m) => m.text)).not.toContain('Te laat.');
    expect((await wall()).items.map((m) => m.text)).not.toContain('Te laat.');
  });

  it('refuses bad input in Dutch and keeps nothing', async () => {
    const before = await memoryCount();
    const bad = await submit(c.publicId, {
      name: 'www.spam.nl',
      email: 'geen-adres',
      yearLabel: '',
      text: '   ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      name: 'Een naam mag geen link, webadres of e-mailadres bevatten',
      email: 'Voer een geldig e-mailadres in',
      yearLabel: 'Jaar of periode is verplicht',
      text: 'Schrijf je herinnering',
    });
    const notJson = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${c.publicId}/visitor-memories`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await memoryCount()).toBe(before);
  });

  it(`limits each address to ${VISITOR_MEMORY_RATE_LIMIT.max} an hour, and the mails to one e-mail address`, async () => {
    for (let i = 0; i < VISITOR_MEMORY_RATE_LIMIT.max; i++) {
      expect(
        (await submit(c.publicId, memory({ email: `rate${i}@example.nl` }), '10.9.1.1')).statusCode,
      ).toBe(201);
    }
    const limited = await submit(c.publicId, memory({ email: 'rate-x@example.nl' }), '10.9.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');

    // One e-mail address from many connections: the outbox's daily limit per address holds.
    const perDay = t.config.MAIL_PER_RECIPIENT_PER_DAY;
    for (let i = 0; i < perDay; i++)
      expect((await submit(c.publicId, memory({ email: 'flood@example.nl' }))).statusCode).toBe(201);
    const before = await memoryCount();
    const flooded = await submit(c.publicId, memory({ email: 'flood@example.nl' }));
    expect(flooded.statusCode).toBe(429);
    expect(await memoryCount()).toBe(before);
  });

  it('deleting an account takes its address off the memories left with it as a visitor', async () => {
    await setOn(true);
    const email = 'dora-visitor@example.nl';
    const dora = await person(t, email, 'Dora Bezoeker');
    for (const text of ['Bevestigd door Dora.', 'Nooit bevestigd door Dora.'])
      expect((await submit(c.publicId, memory({ email, text }))).statusCode).toBe(201);
    const mail = await t.smtp.waitFor((m) => m.to.includes(email));
    // One of the two mails: whichever it is, the other stays unconfirmed.
    expect((await open(linkIn(mail.text)!)).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'POST',
      url: '/core/account/delete',
      headers: dora.headers,
      payload: { confirmation: email.toUpperCase() },
    });
    expect(del.statusCode, del.body).toBe(200);
    const left = await t.db.query<{ body: string; status: string }>(
      `SELECT body, status FROM memories WHERE author_name = 'Bea Bezoeker' AND body LIKE '%Dora.'`,
    );
    expect(left.rows).toEqual([{ body: expect.stringContaining('door Dora.'), status: 'pending' }]);
    expect((await t.db.query('SELECT 1 FROM memory_visitors WHERE email = $1', [email])).rows).toHaveLength(
      0,
    );
  });

  it('off again: the API refuses and a link from before confirms nothing', async () => {
    expect(
      (await submit(c.publicId, memory({ email: 'toolate@example.nl', text: 'Net te laat.' }))).statusCode,
    ).toBe(201);
    const mail = await t.smtp.waitFor((m) => m.to.includes('toolate@example.nl'));
    await setOn(false);
    expect((await submit(c.publicId, memory())).statusCode).toBe(403);
    const res = await open(linkIn(mail.text)!);
    expect(res.statusCode).toBe(403);
    expect((await queue()).items.map((m) => m.text)).not.toContain('Net te laat.');
  });
});
