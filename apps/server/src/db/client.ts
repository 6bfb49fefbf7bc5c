import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { PGlite as PGliteType } from '@electric-sql/pglite';

export type Row = Record<string, unknown>;

/** What repositories use: the same SQL on PGlite and on a PostgreSQL server. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
}

/** A transaction: parameterised queries plus multi-statement scripts (migrations). */
export interface Tx extends Queryable {
  exec(sql: string): Promise<void>;
}

/** A LISTEN on one channel (see Db.listen). */
export interface Listener {
  /** Resolves once every notification committed before the call has been handed to `onPayload`. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** Statements sent since start; the benchmark uses it to show queries per request. */
  readonly statementCount: number;
  /**
   * Calls `onPayload` for each NOTIFY on `channel` committed by any process. `onLost` is called when the
   * listening connection breaks (notifications may have been missed; listen again).
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: (err: Error) => void,
  ): Promise<Listener>;
}

/**
 * Parameterised statements are sent as named prepared statements, so PostgreSQL parses and plans each
 * SQL text once per connection instead of on every call (measured on the wall's read: planning alone
 * cost more than executing). Names come from the SQL text; at most this many distinct texts are named
 * (a runaway of dynamic SQL falls back to unnamed statements rather than filling the server's memory).
 */
const PREPARED_MAX = 500;
/** Per database (pool): another pool's connections never saw this one's statements. */
function pgQuery(preparedNames: Map<string, string>, sql: string, params: unknown[]): pg.QueryConfig {
  // Without parameters pg uses the simple protocol: scripts with several statements stay possible.
  if (params.length === 0) return { text: sql };
  let name = preparedNames.get(sql);
  if (!name && preparedNames.size < PREPARED_MAX) {
    name = `a${preparedNames.size}`;
    preparedNames.set(sql, name);
  }
  return { name, text: sql, values: params };
}

class PgDb implements Db {
  readonly kind = 'postgres';
  statementCount = 0;
  private readonly pool: pg.Pool;
  private readonly preparedNames = new Map<string, string>();
  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async query<T extends Row>(sql: string, params: unknown[] = []) {
    this.statementCount++;
    const r = await this.pool.query(pgQuery(this.preparedNames, sql, params));
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client whose connection breaks emits 'error'; unheard, that would stop the process (the
    // pool listens only on idle clients). The failing query rejects as well; the broken client is discarded.
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken ??= err;
    };
    client.on('error', onError);
    const tx: Tx = {
      exec: async (sql: string) => {
        await client.query(sql);
      },
      query: async <R extends Row>(sql: string, params: unknown[] = []) => {
        this.statementCount++;
        const r = await client.query(pgQuery(this.preparedNames, sql, params));
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      },
    };
    try {
      await client.query('BEGIN');
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch((rollbackErr: Error) => {
        broken ??= rollbackErr;
      });
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async exec(sql: string) {
    await this.pool.query(sql);
  }

  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onLost?: (err: Error) => void,
  ): Promise<Listener> {
    // Its own connection, outside the pool: a LISTEN lasts as long as the session.
    const { connectionString, options } = this.pool.options as pg.PoolConfig;
    const client = new pg.Client({ connectionString, options });
    let closing = false;
    const lost = (err: Error) => {
      if (!closing) onLost?.(err);
      closing = true;
    };
    client.on('notification', (msg) => {
      if (msg.channel === channel) onPayload(msg.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost(new Error('listen connection ended')));
    await client.connect();
    await client.query(`LISTEN "${channel.replace(/"/g, '""')}"`);
    // A committing backend signals listeners before it answers; the listener's backend delivers what is
    // pending before it answers the next query on this connection. One query at a time on it (the driver
    // deprecates overlapping ones): a sync asked for while one is under way waits for the next, which all
    // those waiting share, since the one under way may have been sent before their change committed.
    let inFlight: Promise<void> | undefined;
    let queued: Promise<void> | undefined;
    const sync = (): Promise<void> => {
      if (!inFlight) {
        inFlight = client
          .query('SELECT 1')
          .then(() => undefined)
          .finally(() => {
            inFlight = undefined;
          });
        return inFlight;
      }
      queued ??= inFlight
        .catch(() => undefined)
        .then(() => {
          queued = undefined;
          return sync();
        });
      return queued;
    };
    return {
      sync,
      close: async () => {
        closing = true;
        await client.end().catch(() => {});
      },
    };
  }

  async close() {
    await this.pool.end();
  }
}

class PgliteDb implements Db {
  readonly kind = 'pglite';
  statementCount = 0;
  private readonly pglite: PGliteType;
  constructor(pglite: PGliteType) {
    this.pglite = pglite;
  }

  async query<T extends Row>(sql: string, params: unknown[] = []) {
    this.statementCount++;
    const r = await this.pglite.query<T>(sql, params);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (t) =>
      fn({
        exec: async (sql: string) => {
          await t.exec(sql);
        },
        query: async <R extends Row>(sql: string, params: unknown[] = []) => {
          this.statementCount++;
          const r = await t.query<R>(sql, params);
          return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
        },
      }),
    );
  }

  async exec(sql: string) {
    await this.pglite.exec(sql);
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<Listener> {
    // One embedded session: notifications are handed over as part of the statement that committed.
    const unlisten = await this.pglite.listen(channel, onPayload);
    return {
      sync: async () => {},
      close: async () => {
        await unlisten().catch(() => {});
      },
    };
  }

  async close() {
    await this.pglite.close();
  }

  dump(): Promise<Blob> {
    return this.pglite.dumpDataDir('none');
  }
}

/**
 * PGlite's memory is WebAssembly memory, which only grows: every page PostgreSQL ever touched stays resident. Its
 * defaults (128 MB of shared buffers, 64 MB for index builds) are a server's; the embedded database of one site
 * keeps its tables in the operating system's file cache instead (docs/decisions/015-memory.md).
 */
const pgliteMemorySettings = [
  'shared_buffers=16MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
  'wal_buffers=1MB',
];

/** A copy of an embedded database's files, to start other databases from (tests); PGlite only. */
export async function dumpPglite(db: Db): Promise<Blob> {
  if (!(db instanceof PgliteDb)) throw new Error('dumpPglite needs an embedded (PGlite) database');
  return db.dump();
}

export interface DbOptions {
  /** postgres://… for a server; undefined for embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `memory://` for a throwaway database. */
  pgliteDir?: string;
  /** A schema to create and use (tests isolate each file in its own schema on a shared server). */
  schema?: string;
  poolSize?: number;
  /** A PGlite data directory dump to start from (tests start from a migrated template). */
  loadDataDir?: Blob;
}

export async function createDb(options: DbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // A server that does not answer at all (a dropped network rather than a refused connection) fails
      // a request in seconds, as 503, instead of holding it until the client gives up.
      connectionTimeoutMillis: 5000,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
    pool.on('error', () => {
      /* an idle client lost its connection; the pool replaces it */
    });
    if (options.schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    return new PgDb(pool);
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = options.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) await fs.mkdir(path.dirname(dir), { recursive: true });
  const pglite = await PGlite.create(dir, {
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...pgliteMemorySettings.flatMap((c) => ['-c', c])],
  });
  return new PgliteDb(pglite);
}
