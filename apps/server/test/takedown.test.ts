/**
 * 'Melden' (docs/privacy.md): anyone who can see a memory or a photo reports it with a
 * reason; the owners and the team are mailed; the team hides it at once for everyone but the owners, and
 * shows it again; owners may hide on their own page. Every step is in the audit log.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { auth, createUsers, createWorld, guestTokenFor, type World } from './memorial-fixtures.ts';
import { galleryPhoto, memory, memoryPhoto, randomAddress } from './fixtures/content-matrix.ts';

let t: TestContext;
let team: string;
let pub: World;
let priv: World;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'team@aandenken.test' });
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
  const users = await createUsers(t);
  const other = await createWorld(t, users, { memorialId: crypto.randomUUID(), guestToken: '' });
  const otherGuest = await guestTokenFor(t, other.memorialId);
  pub = await createWorld(
    t,
    users,
    { memorialId: other.memorialId, guestToken: otherGuest },
    { visibility: 'public' },
  );
  priv = await createWorld(t, users, { memorialId: other.memorialId, guestToken: otherGuest });
});
afterAll(async () => t?.close());

const report = (payload: unknown, o: { token?: string | null; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/core/takedown/report',
    headers: auth(o.token ?? null),
    remoteAddress: o.ip ?? randomAddress(),
    payload: payload as object,
  });
const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) } as InjectOptions);

async function wallIds(w: World, token: string | null) {
  const res = await call('POST', '/core/memories/query-memorial', token, {
    memorialId: w.memorialId,
    limit: 50,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).map((m) => m.id);
}
async function galleryIdsSeen(w: World, token: string | null) {
  const res = await call('GET', `/core/memorial-media/all/${w.memorialId}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { id: string }[]).map((m) => m.id);
}
async function audit(memorialId: string, action: string) {
  const { rows } = await t.db.query<{
    actor_kind: string;
    target_id: string;
    details: Record<string, unknown>;
  }>(
    'SELECT actor_kind, target_id, details FROM memorial_audit_log WHERE memorial_id = $1 AND action = $2 ORDER BY seq',
    [memorialId, action],
  );
  return rows;
}

describe('POST /core/takedown/report', () => {
  it('refuses bad input with 400 and unknown or unseen items with 404, storing nothing', async () => {
    const memoryId = await memory(t, pub, { fresh: true });
    for (const payload of [
      {},
      { itemType: 'memory', itemId: memoryId },
      { itemType: 'memory', itemId: memoryId, reason: 'boos' },
      { itemType: 'candle', itemId: memoryId, reason: 'privacy' },
      { itemType: 'memory', itemId: 'geen-uuid', reason: 'privacy' },
      { itemType: 'memory', itemId: memoryId, reason: 'other', details: 'x'.repeat(2001) },
      { itemType: 'memory', itemId: memoryId, reason: 'other', details: 42 },
    ]) {
      const res = await report(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
    }
    expect(
      (await report({ itemType: 'memory', itemId: crypto.randomUUID(), reason: 'privacy' })).statusCode,
    ).toBe(404);
    // A memory on a private page: not for an anonymous visitor (as if it did not exist).
    const privateMemory = await memory(t, priv, { fresh: true });
    const hidden = await report({ itemType: 'memory', itemId: privateMemory, reason: 'privacy' });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('ITEM_NOT_FOUND');
    const { rows } = await t.db.query('SELECT 1 FROM takedown_reports WHERE memory_id = ANY($1::uuid[])', [
      [memoryId, privateMemory],
    ]);
    expect(rows).toHaveLength(0);
  });

  it('takes a report from an anonymous visitor and a code guest, mails the owners and the team once', async () => {
    const memoryId = await memory(t, pub, { fresh: true });
    const res = await report({
      itemType: 'memory',
      itemId: memoryId,
      reason: 'privacy',
      details: 'Hier staat mijn adres in, graag weghalen.',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ received: true });

    const owners = await t.smtp.waitFor(
      (m) => m.to.includes(pub.users.owner.email) && m.subject.startsWith('Melding op de gedenkpagina'),
    );
    expect(owners.text).toContain('Het schendt iemands privacy');
    // One mail per owner, by their own name.
    expect(owners.to).toEqual([pub.users.owner.email]);
    const { rows: named } = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [
      pub.users.owner.userId,
    ]);
    expect(owners.text.split('\n')[0]).toBe(`Beste ${named[0]!.name},`);
    // The reporter's own words go to the team, not to the owners.
    expect(owners.text).not.toContain('mijn adres');
    const teamMail = await t.smtp.waitFor(
      (m) => m.to.includes('team@aandenken.test') && m.text.includes(memoryId),
    );
    expect(teamMail.subject).toMatch(/^Nieuwe melding/);
    expect(teamMail.text).toContain('Hier staat mijn adres in');

    // A second report of the same open item (a code guest of a private page works the same) is stored
    // without new mails.
    const before = t.smtp.messages.length;
    expect(
      (
        await report(
          { itemType: 'memory', itemId: memoryId, reason: 'offensive' },
          { token: pub.tokens.guestThis },
        )
      ).statusCode,
    ).toBe(201);
    const privateMemory = await memory(t, priv, { fresh: true });
    expect(
      (
        await report(
          { itemType: 'memory', itemId: privateMemory, reason: 'incorrect' },
          { token: priv.tokens.guestThis },
        )
      ).statusCode,
    ).toBe(201);
    await t.smtp.waitFor((m) => m.text.includes(privateMemory));
    expect(t.smtp.messages.slice(before).filter((m) => m.text.includes(memoryId))).toHaveLength(0);

    const entries = await audit(pub.memorialId, 'memory.reported');
    expect(
      entries.filter((e) => e.target_id === memoryId).map((e) => [e.actor_kind, e.details.reason]),
    ).toEqual([
      ['anonymous', 'privacy'],
      ['guest', 'offensive'],
    ]);
  });

  it('reports a gallery photo and a memory’s photo', async () => {
    const gallery = await galleryPhoto(t, pub, { fresh: true });
    const photo = await memoryPhoto(t, pub, { fresh: true });
    for (const itemId of [gallery, photo])
      expect((await report({ itemType: 'media', itemId, reason: 'copyright' })).statusCode).toBe(201);
    expect((await audit(pub.memorialId, 'media.reported')).map((e) => e.target_id)).toEqual(
      expect.arrayContaining([gallery, photo]),
    );
  });

  it('limits reports per address: one per item a day, five an hour (429), and counts per item', async () => {
    const ip = randomAddress();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await memory(t, pub, { fresh: true }));
    expect((await report({ itemType: 'memory', itemId: ids[0], reason: 'other' }, { ip })).statusCode).toBe(
      201,
    );
    const again = await report({ itemType: 'memory', itemId: ids[0], reason: 'other' }, { ip });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('al gemeld'),
    });
    for (const id of ids.slice(1, 5))
      expect((await report({ itemType: 'memory', itemId: id, reason: 'other' }, { ip })).statusCode).toBe(
        201,
      );
    const sixth = await report({ itemType: 'memory', itemId: ids[5], reason: 'other' }, { ip });
    expect(sixth.statusCode).toBe(429);
    // Another address may still report.
    expect((await report({ itemType: 'memory', itemId: ids[5], reason: 'other' })).statusCode).toBe(201);
    // The address itself is never stored.
    const { rows } = await t.db.query('SELECT 1 FROM takedown_reports WHERE reporter_key = $1', [ip]);
    expect(rows).toHaveLength(0);
  });
});

describe('hiding: the team at once, owners on their own page', () => {
  it('lets only the team list, hide and unhide; anonymous 401, everyone else 403', async () => {
    const memoryId = await memory(t, pub, { fresh: true });
    expect((await report({ itemType: 'memory', itemId: memoryId, reason: 'offensive' })).statusCode).toBe(
      201,
    );
    const hide = `/core/team/takedowns/memory/${memoryId}/hide`;
    const unhide = `/core/team/takedowns/memory/${memoryId}/unhide`;
    for (const [method, url, payload] of [
      ['GET', '/core/team/takedowns', undefined],
      ['POST', hide, { reason: 'Kwetsend' }],
      ['POST', unhide, undefined],
    ] as const) {
      expect((await call(method, url, null, payload)).statusCode, url).toBe(401);
      expect((await call(method, url, pub.tokens.guestThis!, payload)).statusCode, url).toBe(401);
      for (const who of ['stranger', 'contributor', 'editor', 'owner'] as const) {
        const res = await call(method, url, pub.tokens[who]!, payload);
        expect(res.statusCode, `${who} ${url}`).toBe(403);
        expect(res.json().message).toBe('Alleen het team van Aandenken kan dit doen.');
      }
    }
    expect(await wallIds(pub, null)).toContain(memoryId);
  });

  it('the team sees the report, hides the memory for everyone but the owners, mails them, and shows it again', async () => {
    const memoryId = await memory(t, pub, { fresh: true });
    expect(
      (await report({ itemType: 'memory', itemId: memoryId, reason: 'offensive', details: 'Grof' }))
        .statusCode,
    ).toBe(201);

    const list = await call('GET', '/core/team/takedowns', team);
    expect(list.statusCode, list.body).toBe(200);
    const item = (list.json().items as { itemId: string }[]).find((i) => i.itemId === memoryId);
    expect(item).toMatchObject({
      itemType: 'memory',
      memorialId: pub.memorialId,
      hidden: null,
      reports: [{ reason: 'offensive', details: 'Grof', status: 'open' }],
    });

    const countBefore = (await call('GET', `/core/memorial/${pub.memorialId}`, null)).json().counts
      .memories as number;
    expect(
      (await call('POST', `/core/team/takedowns/memory/${memoryId}/hide`, team, { reason: '' })).statusCode,
    ).toBe(400);
    const hidden = await call('POST', `/core/team/takedowns/memory/${memoryId}/hide`, team, {
      reason: 'Kwetsend voor de familie',
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(
      (await call('POST', `/core/team/takedowns/memory/${memoryId}/hide`, team, { reason: 'nog eens' }))
        .statusCode,
    ).toBe(409);

    // Gone for visitors, guests, members and its own author; the owners still see it, with who and why.
    expect(await wallIds(pub, null)).not.toContain(memoryId);
    expect(await wallIds(pub, pub.tokens.editor)).not.toContain(memoryId);
    expect((await call('GET', `/core/memorial/${pub.memorialId}`, null)).json().counts.memories).toBe(
      countBefore - 1,
    );
    for (const who of ['anonymous', 'guestThis', 'contributor', 'editor'] as const)
      expect((await call('GET', `/core/memories/${memoryId}`, pub.tokens[who])).statusCode, who).toBe(404);
    expect((await call('GET', `/core/memories/${memoryId}`, pub.tokens.owner)).statusCode).toBe(200);
    const ownersList = await call('GET', `/core/memorial/${pub.memorialId}/takedowns`, pub.tokens.owner);
    expect(ownersList.statusCode).toBe(200);
    expect(
      (ownersList.json().items as { itemId: string }[]).find((i) => i.itemId === memoryId),
    ).toMatchObject({
      hidden: { by: 'team', reason: 'Kwetsend voor de familie' },
      reports: [{ status: 'handled' }],
    });
    for (const who of ['anonymous', 'guestThis', 'contributor', 'editor'] as const)
      expect(
        (await call('GET', `/core/memorial/${pub.memorialId}/takedowns`, pub.tokens[who])).statusCode,
        who,
      ).toBe(who === 'anonymous' ? 401 : 403);
    const mail = await t.smtp.waitFor((m) => m.subject.startsWith('Ons team heeft iets verborgen'));
    expect(mail.to).toContain(pub.users.owner.email);
    expect(mail.text).toContain('Kwetsend voor de familie');
    // An owner cannot show again what the team hid.
    const ownerUnhide = await call('POST', `/core/takedown/memory/${memoryId}/unhide`, pub.tokens.owner);
    expect(ownerUnhide.statusCode).toBe(403);

    const shown = await call('POST', `/core/team/takedowns/memory/${memoryId}/unhide`, team);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(await wallIds(pub, null)).toContain(memoryId);
    expect(
      (await audit(pub.memorialId, 'memory.hidden')).find((e) => e.target_id === memoryId)?.details,
    ).toEqual({
      by: 'team',
      reason: 'Kwetsend voor de familie',
    });
    expect((await audit(pub.memorialId, 'memory.unhidden')).map((e) => e.target_id)).toContain(memoryId);
  });

  it('hides a gallery photo: out of the gallery, its bytes refused even through a signed link', async () => {
    const photo = await galleryPhoto(t, pub, { fresh: true });
    const item = await call('GET', `/core/memorial-media/${photo}`, null);
    expect(item.statusCode, item.body).toBe(200);
    const url = new URL((item.json().variants as { url: string }[])[0]!.url);
    expect((await call('GET', `${url.pathname}${url.search}`, null)).statusCode).toBe(200);

    expect(
      (
        await call('POST', `/core/team/takedowns/media/${photo}/hide`, team, {
          reason: 'Niet van de familie',
        })
      ).statusCode,
    ).toBe(200);
    expect(await galleryIdsSeen(pub, null)).not.toContain(photo);
    expect(await galleryIdsSeen(pub, pub.tokens.editor)).not.toContain(photo);
    expect((await call('GET', `/core/memorial-media/${photo}`, null)).statusCode).toBe(404);
    expect((await call('GET', `/core/memorial-media/${photo}`, pub.tokens.owner)).statusCode).toBe(200);
    expect((await call('GET', `${url.pathname}${url.search}`, null)).statusCode).toBe(404);
    // Reordering the gallery without the hidden photo still works.
    const seen = await galleryIdsSeen(pub, pub.tokens.owner);
    const reorder = await call('PUT', '/core/memorial-media/reorder', pub.tokens.editor, {
      memorialId: pub.memorialId,
      orderedIds: [...seen].reverse(),
    });
    expect(reorder.statusCode, reorder.body).toBe(200);
  });

  it('lets an owner hide and unhide on their own page; not an editor; unknown items 404', async () => {
    const memoryId = await memory(t, pub, { fresh: true });
    const url = (verb: string) => `/core/takedown/memory/${memoryId}/${verb}`;
    expect((await call('POST', url('hide'), pub.tokens.editor, { reason: 'Weg' })).statusCode).toBe(403);
    expect((await call('POST', url('hide'), null, { reason: 'Weg' })).statusCode).toBe(401);
    expect((await call('POST', url('hide'), pub.tokens.owner, { reason: 'Te persoonlijk' })).statusCode).toBe(
      200,
    );
    expect(await wallIds(pub, pub.tokens.contributor)).not.toContain(memoryId);
    expect((await call('POST', url('unhide'), pub.tokens.owner)).statusCode).toBe(200);
    expect(await wallIds(pub, pub.tokens.contributor)).toContain(memoryId);
    expect(
      (await audit(pub.memorialId, 'memory.hidden')).find((e) => e.target_id === memoryId)?.details,
    ).toEqual({
      by: 'owner',
      reason: 'Te persoonlijk',
    });
    for (const bad of [`/core/takedown/candle/${memoryId}/hide`, `/core/takedown/memory/geen-uuid/hide`])
      expect((await call('POST', bad, pub.tokens.owner, { reason: 'x' })).statusCode, bad).toBe(404);
    expect(
      (await call('POST', `/core/team/takedowns/memory/${crypto.randomUUID()}/hide`, team, { reason: 'x' }))
        .statusCode,
    ).toBe(404);
  });
});
