import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/db/client.ts';
import { liveChannel, type LiveSubscriber } from '../src/lib/live-channel.ts';
import { eventually } from './fixtures/content.ts';
import { createTestDb } from './helpers.ts';
import { serverReachable, startTcpProxy } from './tcp-proxy.ts';

/**
 * The NOTIFY fan-out behind the guestbook's and the kaarsjesmoment's live streams (guestbook.test.ts and
 * candle-moment.test.ts use it through them). Each test listens on a channel of its own, so terminating its
 * listening connection touches no one else's.
 */
const quiet = () => {};
const log = {
  level: 'silent',
  fatal: quiet,
  error: quiet,
  warn: quiet,
  info: quiet,
  debug: quiet,
  trace: quiet,
  silent: quiet,
  child: () => log,
} as unknown as FastifyBaseLogger;
const channelName = () => `live_test_${randomBytes(6).toString('hex')}`;
const parse = (payload: string) => {
  const [key, message] = payload.split(' ');
  return key && message ? { key, message } : null;
};
function recorder() {
  const got: string[] = [];
  let resyncs = 0;
  let closes = 0;
  const s: LiveSubscriber<string> = {
    onMessage: (m) => got.push(m),
    onResync: () => resyncs++,
    onClose: () => closes++,
  };
  return {
    s,
    got,
    get resyncs() {
      return resyncs;
    },
    get closes() {
      return closes;
    },
  };
}

describe('liveChannel', () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => db?.close());

  it('fans a notification out to the subscribers of its key, case-insensitively, and ignores the rest', async () => {
    const channel = channelName();
    const live = liveChannel({ db, channel, log, parse });
    const a = recorder();
    const b = recorder();
    const other = recorder();
    const offA = await live.subscribe('ABC', a.s);
    const offB = await live.subscribe('abc', b.s);
    const offOther = await live.subscribe('xyz', other.s);
    expect(live.subscribers()).toBe(3);
    await db.query('SELECT pg_notify($1, $2)', [channel, 'abc een']);
    await db.query('SELECT pg_notify($1, $2)', [channel, 'onleesbaar']);
    await eventually(async () => a.got.length === 1 && b.got.length === 1);
    expect(a.got).toEqual(['een']);
    expect(other.got).toEqual([]);
    offA();
    offA();
    expect(live.subscribers()).toBe(2);
    await db.query('SELECT pg_notify($1, $2)', [channel, 'abc twee']);
    await eventually(async () => b.got.length === 2);
    expect(a.got).toEqual(['een']);
    offB();
    offOther();
    expect(live.subscribers()).toBe(0);
    live.close();
  });

  it('calls onClose of every subscriber when it closes, and takes no new ones', async () => {
    const live = liveChannel({ db, channel: channelName(), log, parse });
    const a = recorder();
    await live.subscribe('abc', a.s);
    live.close();
    expect(a.closes).toBe(1);
    expect(live.subscribers()).toBe(0);
    await expect(live.subscribe('abc', a.s)).rejects.toThrow(/closed/);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const reachable = await serverReachable(serverUrl);

describe.skipIf(!reachable)('liveChannel on a PostgreSQL server when the listening connection breaks', () => {
  let admin: Db;
  beforeAll(async () => {
    admin = await createDb({ databaseUrl: serverUrl, poolSize: 2 });
  });
  afterAll(async () => admin?.close());

  it('listens again after its backend is terminated; the subscribers stay, resync, and hear the next NOTIFY', async () => {
    const db = await createDb({ databaseUrl: serverUrl, poolSize: 2 });
    const channel = channelName();
    const live = liveChannel({ db, channel, log, parse, relistenMs: 50 });
    try {
      const a = recorder();
      await live.subscribe('abc', a.s);
      const listening = async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
            [`LISTEN "${channel}"`],
          )
        ).rows.map((r) => r.pid);
      const [pid] = await listening();
      expect(pid).toBeDefined();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await eventually(async () => a.resyncs === 1);
      const now = await listening();
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(pid);
      expect(live.subscribers()).toBe(1);
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'abc daarna']);
      await eventually(async () => a.got.includes('daarna'));
      expect(a.closes).toBe(0);
    } finally {
      live.close();
      await db.close();
    }
  });

  it('keeps trying while the server cannot be reached, and listens again once it can', async () => {
    const target = new URL(serverUrl);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(serverUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const db = await createDb({ databaseUrl: viaProxy.toString(), poolSize: 2 });
    const channel = channelName();
    const live = liveChannel({ db, channel, log, parse, relistenMs: 50 });
    try {
      const a = recorder();
      await live.subscribe('abc', a.s);
      await proxy.cut();
      // Several tries fail meanwhile (each 50 ms); a new subscriber cannot listen either and is refused.
      // eslint-disable-next-line no-restricted-syntax -- retries that fail leave nothing to wait for
      await new Promise((r) => setTimeout(r, 300));
      await expect(live.subscribe('abc', recorder().s)).rejects.toThrow();
      expect(live.subscribers()).toBe(1);
      expect(a.resyncs).toBe(0);
      await proxy.restore();
      await eventually(async () => a.resyncs === 1);
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'abc terug']);
      await eventually(async () => a.got.includes('terug'));
    } finally {
      live.close();
      await db.close();
      await proxy.close();
    }
  });
});
