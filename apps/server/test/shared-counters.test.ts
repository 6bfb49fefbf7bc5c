import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@aandenken/contract';
import { createTestApp, type TestContext } from './helpers.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The rate limits' counters in Redis (REDIS_URL): two app instances (two processes, as far as the limits
 * know: each has its own memory) count against one limit, and a Redis that goes away leaves each counting
 * alone instead of lifting the limit or failing requests. Needs the Redis of TEST_REDIS_URL (default the local
 * one on 6379); skipped without one outside CI, failed without one on CI.
 */
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const redisTarget = { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) };

const reachable = await new Promise<boolean>((resolve) => {
  const socket = net.connect(redisTarget.port, redisTarget.host);
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});
if (!reachable && process.env.CI) throw new Error(`Redis op ${redisUrl.host} antwoordt niet`);

const contact = `/core${apiPaths.contact()}`;
const until = async (check: () => Promise<boolean>, ms = 8_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

describe.skipIf(!reachable)('rate limits shared through Redis', () => {
  // Keys of this run only: CI runs this file on both databases at once against the same Redis.
  const prefix = `aandenken-test-${randomBytes(6).toString('hex')}:`;
  let a: TestContext;
  let b: TestContext;
  let proxy: TcpProxy;
  let c: TestContext;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl.toString());
    const env = { REDIS_URL: redisUrl.toString(), REDIS_KEY_PREFIX: prefix, RATE_LIMIT_MAX: '6' };
    a = await createTestApp(env);
    b = await createTestApp(env);
    proxy = await startTcpProxy(redisTarget);
    c = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: `${prefix}c:`,
      RATE_LIMIT_MAX: '4',
    });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), c?.close()]);
    await proxy?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const apiGet = (ctx: TestContext, address: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `/core${apiPaths.companyDirectory()}`,
      remoteAddress: address,
    });

  it('two processes count one limit per address: the 7th request over both is refused', async () => {
    // A connection made at start may take a moment; until it is there each counts alone, so wait for it.
    await until(async () => {
      const r = await apiGet(a, '10.0.0.1');
      return r.statusCode !== 429 && (await redis.keys(`${prefix}rate:*10.0.0.1*`)).length > 0;
    });
    await redis.del(...(await redis.keys(`${prefix}rate:*10.0.0.1*`)));
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await apiGet(i % 2 ? b : a, '10.0.0.1')).statusCode);
    expect(statuses.slice(0, 6).every((s) => s !== 429 && s < 500)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const refused = await apiGet(b, '10.0.0.1');
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another address has its own count.
    expect((await apiGet(b, '10.0.0.2')).statusCode).not.toBe(429);
  });

  it("a route's own limit (the contact form: 10 an hour) is shared too", async () => {
    const post = (ctx: TestContext) =>
      ctx.app.inject({ method: 'POST', url: contact, payload: {}, remoteAddress: '10.0.1.1' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(i % 2 ? b : a)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('a Redis that goes away leaves each process counting alone: limited, never a 5xx; shared again on return', async () => {
    await until(async () => {
      await apiGet(c, '10.0.2.1');
      return (await redis.keys(`${prefix}c:rate:*`)).length > 0;
    });
    await proxy.cut();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await apiGet(c, '10.0.2.9')).statusCode);
    expect(statuses.every((s) => s < 500)).toBe(true);
    // Counted in this process's memory: the limit of 4 still holds.
    expect(statuses.slice(0, 4).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);

    await proxy.restore();
    // Back on Redis (it reconnects on its own): a new address is counted there.
    await until(async () => {
      const r = await apiGet(c, '10.0.2.20');
      expect(r.statusCode).toBeLessThan(500);
      return (await redis.keys(`${prefix}c:rate:*10.0.2.20*`)).length > 0;
    });
  });
});
