import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';

/** Load shedding with @fastify/under-pressure, with pressure forced by low limits. */
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Only between the samples of the loops below, where the event loop's own time is what is under test.
// eslint-disable-next-line no-restricted-syntax -- see above
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const expectShed = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({ code: 'OVERLOADED', message: expect.stringContaining('erg druk') });
};

describe('load shedding', () => {
  it('answers 503 OVERLOADED with Retry-After while the heap is above its limit, health included', async () => {
    const { app } = (t = await createTestApp({ OVERLOAD_MAX_HEAP_USED_MB: '1' }));
    // From the first sample on.
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: '/healthz' })).statusCode, {
        timeout: 10_000,
        interval: 100,
      })
      .toBe(503);
    expectShed(await app.inject({ method: 'POST', url: '/core/candles/query', payload: {} }));
    expectShed(await app.inject({ method: 'GET', url: '/healthz' }));
  });

  it('answers 503 while the event loop lags, and serves again once it has caught up', async () => {
    t = await createTestApp({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '100', OVERLOAD_MAX_HEAP_USED_MB: '0' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    let shed = false;
    for (let i = 0; i < 3 && !shed; i++) {
      const until = Date.now() + 1500;
      while (Date.now() < until); // a stalled event loop, longer than one sample
      await sleep(20);
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      if (res.statusCode === 503) {
        expectShed(res);
        shed = true;
      }
    }
    expect(shed).toBe(true);
    let back = 0;
    for (let i = 0; i < 30 && back !== 200; i++) {
      await sleep(200);
      back = (await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
    }
    expect(back).toBe(200);
  });
});
