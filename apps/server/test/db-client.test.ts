/**
 * The database client: parameterised statements are prepared once per connection on a PostgreSQL server
 * (the plan is reused, see src/db/client.ts), scripts without parameters still run as several statements,
 * and the keyset condition of newest-first lists keeps the index in a prepared statement's generic plan.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from './helpers.ts';
import type { Db } from '../src/db/client.ts';
import { installRoutines, plannedOnce } from '../src/db/routines.ts';
import { keysetBefore, wallRoutine } from '../src/modules/memories/repository.ts';

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db?.close());

describe('database client', () => {
  it('runs a script of several statements without parameters', async () => {
    await db.exec('CREATE TEMP TABLE IF NOT EXISTS script_check (n int); SELECT 1;');
    await db.transaction(async (tx) => {
      await tx.exec('CREATE TEMP TABLE tx_script (n int); INSERT INTO tx_script VALUES (1), (2);');
      const { rows } = await tx.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM tx_script WHERE n > $1',
        [0],
      );
      expect(rows[0]!.n).toBe(2);
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'prepares a parameterised statement once per connection and reuses it',
    async () => {
      const sql = 'SELECT $1::int + 1 AS n /* prepared-check */';
      await db.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) expect((await tx.query<{ n: number }>(sql, [i])).rows[0]!.n).toBe(i + 1);
        const { rows } = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`,
          [sql],
        );
        expect(rows[0]!.n).toBe(1);
      });
    },
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'keeps the wall index for a cursor in a generic plan',
    async () => {
      await db.transaction(async (tx) => {
        await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
        await tx.exec(`PREPARE wall_check(uuid, timestamptz, uuid) AS
          SELECT id FROM memories mo
           WHERE mo.memorial_id = $1 AND mo.status = 'published'
             AND ${keysetBefore('mo', '$2', '$3')}
           ORDER BY mo.created_at DESC, mo.id DESC LIMIT 21`);
        await tx.exec('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN EXECUTE wall_check(gen_random_uuid(), now(), gen_random_uuid())`,
          [],
        );
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).toContain('memories_wall_idx');
        expect(plan).toMatch(/Index Cond: .*ROW\(created_at, id\) < ROW/);
        await tx.exec('DEALLOCATE wall_check');
      });
    },
  );
});

describe('routines made from the application’s statements', () => {
  const routineCount = async (prefix: string) =>
    (
      await db.query<{ n: number; config: string[] | null }>(
        `SELECT count(*)::int AS n, max(p.proconfig::text)::text[] AS config
           FROM pg_proc p WHERE p.proname LIKE $1 AND p.pronamespace = current_schema()::regnamespace`,
        [`${prefix}\\_%`],
      )
    ).rows[0]!;

  it('installs the wall function with the migrations, planned once per connection (a generic plan)', async () => {
    const found = await routineCount('memory_wall_page');
    expect(found.n).toBe(1);
    expect(found.config).toEqual(['plan_cache_mode=force_generic_plan']);
    const { rows } = await db.query<{ found: boolean }>('SELECT to_regprocedure($1) IS NOT NULL AS found', [
      `${wallRoutine.name}(${wallRoutine.args})`,
    ]);
    expect(rows[0]!.found).toBe(true);
  });

  it('names each definition by its digest, and installing it again changes nothing', async () => {
    const make = (n: number) =>
      plannedOnce('routine_check', {
        args: 'integer',
        returns: 'n integer',
        statement: `SELECT $1 + ${n}`,
      });
    const [one, two] = [make(1), make(2)];
    expect(one.name).not.toBe(two.name);
    expect(make(1).name).toBe(one.name);
    await installRoutines(db, [one, two]);
    await installRoutines(db, [one]);
    expect((await routineCount('routine_check')).n).toBe(2);
    const { rows } = await db.query<{ n: number }>(`SELECT n FROM ${two.name}($1)`, [40]);
    expect(rows).toEqual([{ n: 42 }]);
  });
});

describe('listening for changes', () => {
  it('delivers, on every sync, what was committed before it, even with many syncs at once', async () => {
    const channel = `sync_check_${process.pid}`;
    const heard: string[] = [];
    // One query at a time on the listening connection: the driver deprecates overlapping ones (pg@9 refuses
    // them). Seen from the driver's side: the most queries any one client had under way at once.
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    const underWay = new Map<unknown, number>();
    let most = 0;
    proto.query = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      if (result instanceof Promise) {
        underWay.set(this, (underWay.get(this) ?? 0) + 1);
        most = Math.max(most, underWay.get(this)!);
        const done = () => underWay.set(this, underWay.get(this)! - 1);
        result.then(done, done);
      }
      return result;
    };
    const listener = await db.listen(channel, (p) => heard.push(p));
    try {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          await db.query('SELECT pg_notify($1, $2)', [channel, String(i)]);
          await listener.sync();
          expect(heard).toContain(String(i));
        }),
      );
      expect(heard).toHaveLength(20);
      if (db.kind === 'postgres') expect(most).toBe(1);
    } finally {
      proto.query = original;
      await listener.close();
    }
  });
});
