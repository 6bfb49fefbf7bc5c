/**
 * Values computed per key and kept while their version holds (`ResponseCache.versionOf`: bumped by the
 * database's change notifications), for pages rendered on the server. A value is computed once per version;
 * concurrent misses of one key and version share one computation; a value whose version moved while it was
 * computed is answered but not kept; a null version (notifications not heard just now) keeps nothing. At most
 * `maxEntries` values are kept, the least recently used going first.
 */
export function versionedCache<T>({
  maxEntries,
  keep = () => true,
}: {
  maxEntries: number;
  /** Whether a computed value may be kept (a failed or empty render is answered, never kept). */
  keep?: (value: T) => boolean;
}) {
  const entries = new Map<string, { version: string; value: T }>();
  const inflight = new Map<string, { version: string | null; promise: Promise<T> }>();

  return {
    /** `versionOf` is read before and after `compute`; `compute` should not reject (its waiters all would). */
    get(key: string, versionOf: () => string | null, compute: () => Promise<T>): Promise<T> {
      const version = versionOf();
      const kept = entries.get(key);
      if (kept && version !== null && kept.version === version) {
        entries.delete(key); // most recently used goes last
        entries.set(key, kept);
        return Promise.resolve(kept.value);
      }
      const flight = inflight.get(key);
      if (flight && version !== null && flight.version === version) return flight.promise;
      const promise = compute().then((value) => {
        if (keep(value) && version !== null && versionOf() === version) {
          entries.delete(key);
          entries.set(key, { version, value });
          for (const old of entries.keys()) {
            if (entries.size <= maxEntries) break;
            entries.delete(old);
          }
        }
        return value;
      });
      const current = { version, promise };
      inflight.set(key, current);
      void promise
        .finally(() => {
          if (inflight.get(key) === current) inflight.delete(key);
        })
        .catch(() => {});
      return promise;
    },
    /** How many values are kept (for tests). */
    get size() {
      return entries.size;
    },
  };
}
