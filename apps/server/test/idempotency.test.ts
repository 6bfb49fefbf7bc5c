import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import { cast } from './fixtures/content.ts';
import { IDEMPOTENCY_CLEANUP_JOB } from '../src/lib/idempotency.ts';

let t: TestContext;
let c: Awaited<ReturnType<typeof cast>>;
let address = 0;

beforeAll(async () => {
  t = await createTestApp();
  c = await cast(t, 'idem');
});
afterAll(async () => t?.close());

const light = (key: string | undefined, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/core/candles/${c.publicId}`,
    headers: key ? { ...headers, 'idempotency-key': key } : headers,
    payload,
    remoteAddress: `10.7.0.${++address % 250}`,
  });
const candlesNamed = async (name: string) =>
  (
    await t.db.query<{ id: string }>(`SELECT id FROM candles WHERE memorial_id = $1 AND name = $2`, [
      c.publicId,
      name,
    ])
  ).rows.map((r) => r.id);

describe('Idempotency-Key on writes', () => {
  it('a repeat gets the first answer and lights one candle', async () => {
    const key = crypto.randomUUID();
    const first = await light(key, { name: 'Herhaald', message: 'Eén keer' });
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await light(key, { name: 'Herhaald', message: 'Eén keer' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.json()).toEqual(first.json());
    expect(await candlesNamed('Herhaald')).toEqual([first.json().id]);
    // The answer was stored in the candle's own transaction.
    const { rows } = await t.db.query<{ status: string; response_status: number }>(
      `SELECT status, response_status FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(rows).toEqual([{ status: 'done', response_status: 201 }]);
  });

  it('without a key every request is its own', async () => {
    await light(undefined, { name: 'Zonder sleutel' });
    await light(undefined, { name: 'Zonder sleutel' });
    expect(await candlesNamed('Zonder sleutel')).toHaveLength(2);
  });

  it('the same key with another body is refused with 422', async () => {
    const key = crypto.randomUUID();
    expect((await light(key, { name: 'Eerste' })).statusCode).toBe(201);
    const other = await light(key, { name: 'Tweede' });
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: expect.stringContaining('al gebruikt'),
    });
    expect(await candlesNamed('Tweede')).toEqual([]);
  });

  it('keeps anonymous callers and members apart', async () => {
    const key = crypto.randomUUID();
    const anon = await light(key, { name: 'Gedeelde sleutel' });
    const owner = await light(key, { name: 'Gedeelde sleutel' }, c.owner.headers);
    const stranger = await light(key, { name: 'Gedeelde sleutel' }, c.stranger.headers);
    expect([anon.statusCode, owner.statusCode, stranger.statusCode]).toEqual([201, 201, 201]);
    expect(owner.headers['idempotent-replayed']).toBeUndefined();
    expect(stranger.headers['idempotent-replayed']).toBeUndefined();
    expect(new Set([anon.json().id, owner.json().id, stranger.json().id]).size).toBe(3);
    const ownerAgain = await light(key, { name: 'Gedeelde sleutel' }, c.owner.headers);
    expect(ownerAgain.json().id).toBe(owner.json().id);
    expect(await candlesNamed('Gedeelde sleutel')).toHaveLength(3);
  });

  it('a repeat while the first request still runs gets 409', async () => {
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([light(key, { name: 'Tegelijk' }), light(key, { name: 'Tegelijk' })]);
    const statuses = [a.statusCode, b.statusCode].sort();
    // Either the second came while the first ran (409), or after it (a replay).
    expect([
      [201, 409],
      [201, 201],
    ]).toContainEqual(statuses);
    expect(await candlesNamed('Tegelijk')).toHaveLength(1);

    const running = crypto.randomUUID();
    const body = await light(running, { name: 'Bezig' });
    await t.db.query(
      `UPDATE idempotency_keys SET status = 'running', response_status = NULL WHERE key = $1`,
      [running],
    );
    const during = await light(running, { name: 'Bezig' });
    expect(during.statusCode).toBe(409);
    expect(during.json().code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(body.statusCode).toBe(201);
  });

  it('works for any write: a repeated delete answers as the first did', async () => {
    const lit = await light(undefined, { name: 'Weg ermee' });
    const key = crypto.randomUUID();
    const del = () =>
      t.app.inject({
        method: 'DELETE',
        url: `/core/candles/${lit.json().id}`,
        headers: { ...c.owner.headers, 'idempotency-key': key },
      });
    const first = await del();
    expect(first.statusCode).toBe(200);
    const again = await del();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // Without the key the candle is simply gone.
    const plain = await t.app.inject({
      method: 'DELETE',
      url: `/core/candles/${lit.json().id}`,
      headers: c.owner.headers,
    });
    expect(plain.statusCode).toBe(404);
  });

  it('does not keep 5xx answers and refuses a malformed key', async () => {
    const bad = await light('kort', { name: 'Slechte sleutel' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    // Reads sent as POST are not stored.
    const key = crypto.randomUUID();
    const q = await t.app.inject({
      method: 'POST',
      url: '/core/candles/query',
      headers: { 'idempotency-key': key },
      payload: { memorialId: c.publicId },
    });
    expect(q.statusCode).toBe(200);
    expect((await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).rows).toHaveLength(0);
  });

  it('expired keys are removed by the cleanup job, and the key may then be used again', async () => {
    const key = crypto.randomUUID();
    const first = await light(key, { name: 'Verlopen' });
    await t.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 minute' WHERE key = $1`, [
      key,
    ]);
    await t.app.deps.queue.runNow(IDEMPOTENCY_CLEANUP_JOB);
    expect((await t.db.query(`SELECT 1 FROM idempotency_keys WHERE key = $1`, [key])).rows).toHaveLength(0);
    const later = await light(key, { name: 'Verlopen' });
    expect(later.statusCode).toBe(201);
    expect(later.json().id).not.toBe(first.json().id);
  });
});
