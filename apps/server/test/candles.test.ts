import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDLE_MESSAGE_MAX, CANDLE_RATE_LIMIT } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast, guestToken, memorial } from './fixtures/content.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let address = 0;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'candle');
});
afterAll(async () => t?.close());

type Headers = Record<string, string> | undefined;
/** Each call from its own address unless one is given: lighting is limited per address. */
const light = (
  memorialId: string,
  headers: Headers,
  payload: unknown,
  remoteAddress = `10.1.0.${++address % 250}`,
) =>
  t.app.inject({
    method: 'POST',
    url: `/core/candles/${memorialId}`,
    headers,
    payload: payload as object,
    remoteAddress,
  });
const query = (payload: unknown, headers?: Headers) =>
  t.app.inject({ method: 'POST', url: '/core/candles/query', headers, payload: payload as object });

describe('POST /core/candles/{memorialId}', () => {
  it('lets anyone who may see the memorial light a candle or lay a flower', async () => {
    const anon = await light(c.publicId, undefined, {
      name: '  Marieke ',
      message: 'Rust zacht.\r\nWe missen je.',
      kind: 'flower',
    });
    expect(anon.statusCode).toBe(201);
    expect(anon.json()).toMatchObject({
      memorialId: c.publicId,
      kind: 'flower',
      name: 'Marieke',
      message: 'Rust zacht.\nWe missen je.',
    });
    expect(anon.json().createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const plain = await light(c.publicId, c.stranger.headers, { name: 'Vera' });
    expect(plain.json()).toMatchObject({ kind: 'candle', message: null });

    const token = await guestToken(t, c.privateId, 'Tante Jet');
    for (const h of [token.headers, c.guest.headers, c.contributor.headers, c.owner.headers]) {
      expect((await light(c.privateId, h, { name: 'Familie' })).statusCode).toBe(201);
    }
    const other = await guestToken(t, c.publicId);
    for (const h of [undefined, c.stranger.headers, other.headers]) {
      const res = await light(c.privateId, h, { name: 'Iemand' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('MEMORIAL_NOT_FOUND');
    }
    const row = await t.db.query('SELECT lit_by_user_id, lit_by_guest_token_id FROM candles WHERE id = $1', [
      plain.json().id,
    ]);
    expect(row.rows[0]).toEqual({ lit_by_user_id: c.stranger.userId, lit_by_guest_token_id: null });
  });

  it('validates with Dutch messages and stores nothing', async () => {
    const before = (await t.db.query('SELECT count(*)::int AS n FROM candles')).rows[0];
    const res = await light(c.publicId, undefined, {
      name: '',
      message: 'x'.repeat(CANDLE_MESSAGE_MAX + 1),
      kind: 'lamp',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: 'Naam is verplicht',
      message: `Je bericht mag maximaal ${CANDLE_MESSAGE_MAX} tekens zijn`,
      kind: "Kies 'candle' (kaarsje) of 'flower' (bloem)",
    });
    expect((await light(crypto.randomUUID(), undefined, { name: 'A' })).statusCode).toBe(404);
    expect((await light('geen-id', undefined, { name: 'A' })).statusCode).toBe(404);
    expect((await t.db.query('SELECT count(*)::int AS n FROM candles')).rows[0]).toEqual(before);
  });

  it('refuses a concept memorial to visitors and an archived one to everyone', async () => {
    const concept = await memorial(t, c.owner, { status: 'concept', visibility: 'public' });
    expect((await light(concept, undefined, { name: 'A' })).statusCode).toBe(404);
    expect((await light(concept, c.owner.headers, { name: 'A' })).statusCode).toBe(201);
    const archived = await memorial(t, c.owner, { status: 'archived', visibility: 'public' });
    expect((await light(archived, c.owner.headers, { name: 'A' })).statusCode).toBe(409);
  });

  it(`limits each address to ${CANDLE_RATE_LIMIT.max} per ${CANDLE_RATE_LIMIT.windowMinutes} minutes`, async () => {
    for (let i = 0; i < CANDLE_RATE_LIMIT.max; i++) {
      expect((await light(c.publicId, undefined, { name: `Bezoeker ${i}` }, '10.9.9.9')).statusCode).toBe(
        201,
      );
    }
    const limited = await light(c.publicId, undefined, { name: 'Nog een' }, '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect((await light(c.publicId, undefined, { name: 'Ander adres' }, '10.9.9.10')).statusCode).toBe(201);
  });
});

describe('GET /core/candles/{id}', () => {
  it('shows a candle to those who may see its memorial', async () => {
    const id = (await light(c.privateId, c.owner.headers, { name: 'Olga', message: 'Dag pap' })).json().id;
    const res = await t.app.inject({ url: `/core/candles/${id}`, headers: c.guest.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Olga', message: 'Dag pap', kind: 'candle' });
    for (const h of [undefined, c.stranger.headers]) {
      const hidden = await t.app.inject({ url: `/core/candles/${id}`, headers: h });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().code).toBe('CANDLE_NOT_FOUND');
    }
    expect((await t.app.inject({ url: '/core/candles/onzin' })).statusCode).toBe(404);
  });
});

describe('POST /core/candles/query', () => {
  it('pages newest first with totals per kind', async () => {
    const id = await memorial(t, c.owner, { visibility: 'public' });
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push((await light(id, undefined, { name: `N${i}`, kind: i < 2 ? 'flower' : 'candle' })).json().id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: LightMyRequestResponse = await query({ memorialId: id, limit: 2, cursor });
      expect(res.statusCode).toBe(200);
      expect(res.json().counts).toEqual({ candle: 3, flower: 2, total: 5 });
      seen.push(...res.json().items.map((x: { id: string }) => x.id));
      cursor = res.json().nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    expect(pages).toBe(3);

    expect((await query({ memorialId: c.privateId })).statusCode).toBe(404);
    expect((await query({ memorialId: c.privateId }, c.guest.headers)).statusCode).toBe(200);
    const bad = await query({ memorialId: id, limit: 0, cursor: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.limit).toBe('Aantal moet minstens 1 zijn');
    expect((await query({ memorialId: id, cursor: 'x' })).json().fields).toEqual({
      cursor: 'Ongeldige cursor',
    });
    expect((await query({})).json().fields).toEqual({ memorialId: 'Gedenkpagina is verplicht' });
  });
});

describe('DELETE /core/candles/{id}', () => {
  it('lets editors and owners remove a candle, and records it', async () => {
    const id = (await light(c.publicId, undefined, { name: 'Trol', message: 'Iets ongepasts' })).json().id;
    expect((await t.app.inject({ method: 'DELETE', url: `/core/candles/${id}` })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/core/candles/${id}`, headers: c.contributor.headers }))
        .statusCode,
    ).toBe(403);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/core/candles/${id}`,
      headers: c.editor.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, deleted: true });
    expect((await t.app.inject({ url: `/core/candles/${id}` })).statusCode).toBe(404);
    const audit = await t.db.query(
      'SELECT action, actor_user_id FROM memorial_audit_log WHERE target_id = $1',
      [id],
    );
    expect(audit.rows).toEqual([{ action: 'candle.removed', actor_user_id: c.editor.userId }]);
  });
});
