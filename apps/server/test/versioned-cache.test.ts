import { describe, expect, it } from 'vitest';
import { versionedCache } from '../src/lib/versioned-cache.ts';

/**
 * The page cache behind the memorial and company pages rendered on the server (memorial-ssr.test.ts and
 * company-ssr.test.ts test it through the pages); here its rules one by one.
 */
function counter<T>(value: (n: number) => T) {
  let calls = 0;
  const gates: (() => void)[] = [];
  return {
    get calls() {
      return calls;
    },
    /** Computes at once. */
    now: async () => value(++calls),
    /** Computes when `open()` is called. */
    held: () => {
      const n = ++calls;
      return new Promise<T>((resolve) => gates.push(() => resolve(value(n))));
    },
    open: () => gates.splice(0).forEach((go) => go()),
  };
}

describe('versionedCache', () => {
  it('computes once per version and again once the version moves', async () => {
    const cache = versionedCache<string>({ maxEntries: 10 });
    const c = counter((n) => `page ${n}`);
    let version: string | null = '1';
    expect(await cache.get('a', () => version, c.now)).toBe('page 1');
    expect(await cache.get('a', () => version, c.now)).toBe('page 1');
    expect(c.calls).toBe(1);
    version = '2';
    expect(await cache.get('a', () => version, c.now)).toBe('page 2');
    expect(await cache.get('a', () => version, c.now)).toBe('page 2');
    expect(c.calls).toBe(2);
  });

  it('lets concurrent misses of one version share one computation', async () => {
    const cache = versionedCache<string>({ maxEntries: 10 });
    const c = counter((n) => `page ${n}`);
    const all = Promise.all([1, 2, 3].map(() => cache.get('a', () => '1', c.held)));
    c.open();
    expect(await all).toEqual(['page 1', 'page 1', 'page 1']);
    expect(c.calls).toBe(1);
  });

  it('answers but does not keep a value whose version moved while it was computed', async () => {
    const cache = versionedCache<string>({ maxEntries: 10 });
    const c = counter((n) => `page ${n}`);
    let version = '1';
    const first = cache.get('a', () => version, c.held);
    version = '2';
    // A request for the new version does not join the old computation.
    const second = cache.get('a', () => version, c.held);
    c.open();
    expect(await first).toBe('page 1');
    expect(await second).toBe('page 2');
    expect(await cache.get('a', () => version, c.now)).toBe('page 2');
    expect(c.calls).toBe(2);
  });

  it('keeps nothing and shares nothing while the version is unknown (null)', async () => {
    const cache = versionedCache<string>({ maxEntries: 10 });
    const c = counter((n) => `page ${n}`);
    const both = Promise.all([cache.get('a', () => null, c.held), cache.get('a', () => null, c.held)]);
    c.open();
    expect(await both).toEqual(['page 1', 'page 2']);
    expect(await cache.get('a', () => null, c.now)).toBe('page 3');
    expect(cache.size).toBe(0);
  });

  it('keeps only what `keep` allows', async () => {
    const cache = versionedCache<string | null>({ maxEntries: 10, keep: (v) => v !== null });
    const c = counter((n) => (n === 1 ? null : `page ${n}`));
    expect(await cache.get('a', () => '1', c.now)).toBeNull();
    expect(await cache.get('a', () => '1', c.now)).toBe('page 2');
    expect(await cache.get('a', () => '1', c.now)).toBe('page 2');
    expect(c.calls).toBe(2);
  });

  it('drops the least recently used beyond maxEntries', async () => {
    const cache = versionedCache<string>({ maxEntries: 2 });
    const c = counter((n) => `page ${n}`);
    await cache.get('a', () => '1', c.now); // 1
    await cache.get('b', () => '1', c.now); // 2
    await cache.get('a', () => '1', c.now); // a used again: b is now the oldest
    await cache.get('c', () => '1', c.now); // 3, drops b
    expect(cache.size).toBe(2);
    expect(await cache.get('a', () => '1', c.now)).toBe('page 1');
    expect(await cache.get('b', () => '1', c.now)).toBe('page 4');
    expect(c.calls).toBe(4);
  });

  it('forgets a failed computation, so the next request tries again', async () => {
    const cache = versionedCache<string>({ maxEntries: 2 });
    await expect(
      cache.get(
        'a',
        () => '1',
        () => Promise.reject(new Error('kapot')),
      ),
    ).rejects.toThrow('kapot');
    expect(
      await cache.get(
        'a',
        () => '1',
        async () => 'page',
      ),
    ).toBe('page');
  });
});
