/**
 * Every list costs a fixed number of SQL statements, however many rows its page holds: each list
 * below is read with page size 1 and 20 while more than 20 rows exist, and both must cost the same.
 * (Members and the wall have their own such checks in memorial-members and memories tests.)
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memorialService } from '../src/modules/memorials/service.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createInvite,
  createMemorial,
  createUsers,
  type Users,
} from './memorial-fixtures.ts';
import { multipartRequest, randomAddress, uploadBody } from './fixtures/content-matrix.ts';

const ROWS = 21;
let t: TestContext;
let u: Users;
let memorialId: string;

async function ok(req: InjectOptions, status: number) {
  const res = await t.app.inject({ remoteAddress: randomAddress(), ...req });
  if (res.statusCode !== status)
    throw new Error(`set-up ${req.method} ${req.url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
  memorialId = (await createMemorial(t, u.owner)).id;
  await addMember(t, memorialId, u.contributor, 'contributor');
  const owner = { kind: 'user' as const, userId: u.owner.userId, email: u.owner.email, name: null };
  const memorials = memorialService({ db: t.db });
  for (let i = 0; i < ROWS; i++) {
    // Public, active memorials of the owner (the directory and "my memorials").
    await createMemorial(t, u.owner, { visibility: 'public', lastName: `Lijst ${i}` });
    await ok(
      {
        method: 'POST',
        url: `/core/candles/${memorialId}`,
        headers: auth(u.owner.token),
        payload: { name: `Kaars ${i}`, kind: i % 2 ? 'candle' : 'flower' },
      },
      201,
    );
    await createInvite(t, memorialId, u.owner);
    await memorials.update(owner, { id: memorialId, quote: `Citaat ${i}` }); // one audit entry each
    const photo = await uploadBody('memorialId', memorialId);
    await ok(
      {
        ...multipartRequest('/core/memorial-media', photo),
        headers: { 'content-type': photo.contentType, ...auth(u.owner.token) },
      },
      201,
    );
    const memory = await ok(
      {
        method: 'POST',
        url: '/core/memories/concept',
        headers: auth(u.contributor.token),
        payload: { memorialId, yearLabel: `${1950 + i}`, text: `Herinnering ${i}`, membersOnly: false },
      },
      201,
    );
    await ok(
      {
        method: 'POST',
        url: '/core/memories/publish',
        headers: auth(u.contributor.token),
        payload: { id: memory.id },
      },
      200,
    );
  }
  // The photos' variants made; then no background work (job queue, mail outbox) may add a statement to a window.
  await t.app.deps.queue.idle();
  await t.app.deps.outbox.stop();
  await t.app.deps.queue.stop();
});
afterAll(async () => t?.close());

interface List {
  name: string;
  token: () => string;
  request: (limit: number) => InjectOptions;
}
const post = (url: string, payload: object) => (limit: number) =>
  ({ method: 'POST', url, payload: { ...payload, limit } }) as InjectOptions;

const lists: List[] = [
  {
    name: 'POST /core/candles/query',
    token: () => u.owner.token,
    request: (limit) => post('/core/candles/query', { memorialId })(limit),
  },
  {
    name: 'POST /core/guest-invite/query',
    token: () => u.owner.token,
    request: (limit) => post('/core/guest-invite/query', { memorialId })(limit),
  },
  {
    name: 'GET /core/memorial/{memorialId}/audit',
    token: () => u.owner.token,
    request: (limit) => ({ method: 'GET', url: `/core/memorial/${memorialId}/audit?limit=${limit}` }),
  },
  {
    name: 'POST /core/memorial-media/query',
    token: () => u.owner.token,
    request: (limit) => post('/core/memorial-media/query', { memorialId })(limit),
  },
  {
    name: 'POST /core/memorial/query',
    token: () => u.stranger.token,
    request: (limit) => post('/core/memorial/query', {})(limit),
  },
  {
    name: 'POST /core/memorial/query/partof',
    token: () => u.owner.token,
    request: (limit) => post('/core/memorial/query/partof', {})(limit),
  },
  {
    name: 'POST /core/memories/query-manage',
    token: () => u.owner.token,
    request: (limit) => post('/core/memories/query-manage', { memorialId })(limit),
  },
  {
    name: 'POST /core/memories/query-own',
    token: () => u.contributor.token,
    request: (limit) => post('/core/memories/query-own', { memorialId })(limit),
  },
  {
    name: 'POST /core/memories/query-own (all memorials)',
    token: () => u.contributor.token,
    request: (limit) => post('/core/memories/query-own', {})(limit),
  },
];

/** Statements one page costs; the least of three. */
async function statements(list: List, limit: number) {
  const counts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const req = list.request(limit);
    const before = t.db.statementCount;
    const res = await t.app.inject({ ...req, headers: auth(list.token()), remoteAddress: randomAddress() });
    counts.push(t.db.statementCount - before);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { items: unknown[]; nextCursor: string | null };
    expect(page.items, `${list.name} holds a full page`).toHaveLength(limit);
    expect(page.nextCursor, `${list.name} has more`).not.toBeNull();
  }
  return Math.min(...counts);
}

describe('a fixed number of statements per page', () => {
  for (const list of lists) {
    it(list.name, async () => {
      const one = await statements(list, 1);
      const twenty = await statements(list, 20);
      expect(one, 'the page is read from the database').toBeGreaterThan(0);
      expect(twenty).toBe(one);
    });
  }
});
