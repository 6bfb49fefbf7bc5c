import type { Candle, CandleKind } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

interface CandleRow {
  id: string;
  memorial_id: string;
  kind: CandleKind;
  name: string;
  message: string | null;
  created_at: Date | string;
  cursor_ts: string;
  [key: string]: unknown;
}

export const toCandle = (r: CandleRow): Candle => ({
  id: r.id,
  memorialId: r.memorial_id,
  kind: r.kind,
  name: r.name,
  message: r.message,
  createdAt: new Date(r.created_at).toISOString(),
});

const columns = 'id, memorial_id, kind, name, message, created_at, created_at::text AS cursor_ts';

export function candleRepository(db: Queryable) {
  return {
    /** The newest candles lit between two moments (a kaarsjesmoment's), at most 100. */
    async during(memorialId: string, from: Date | string, until: Date | string): Promise<CandleRow[]> {
      const { rows } = await db.query<CandleRow>(
        `SELECT ${columns} FROM candles
          WHERE memorial_id = $1 AND created_at >= $2 AND created_at < $3
          ORDER BY created_at DESC, id DESC LIMIT 100`,
        [memorialId, from, until],
      );
      return rows;
    },

    /** The name shown on the candles this user lit. */
    async renameLitBy(userId: string, name: string) {
      await db.query('UPDATE candles SET name = $2 WHERE lit_by_user_id = $1', [userId, name]);
    },

    async insert(c: {
      memorialId: string;
      kind: CandleKind;
      name: string;
      message: string | null;
      userId: string | null;
      guestTokenId: string | null;
    }): Promise<CandleRow> {
      const { rows } = await db.query<CandleRow>(
        `INSERT INTO candles (memorial_id, kind, name, message, lit_by_user_id, lit_by_guest_token_id)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
        [c.memorialId, c.kind, c.name, c.message, c.userId, c.guestTokenId],
      );
      return rows[0]!;
    },
    async findById(id: string): Promise<CandleRow | undefined> {
      const { rows } = await db.query<CandleRow>(`SELECT ${columns} FROM candles WHERE id = $1`, [id]);
      return rows[0];
    },
    /** Newest first, keyset-paginated on (created_at, id). */
    async list(
      memorialId: string,
      o: { after: [string, string] | null; limit: number },
    ): Promise<CandleRow[]> {
      const { rows } = await db.query<CandleRow>(
        `SELECT ${columns} FROM candles
          WHERE memorial_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
          ORDER BY created_at DESC, id DESC
          LIMIT $4`,
        [memorialId, o.after?.[0] ?? null, o.after?.[1] ?? null, o.limit],
      );
      return rows;
    },
    async counts(memorialId: string): Promise<{ candle: number; flower: number; total: number }> {
      const { rows } = await db.query<{ kind: CandleKind; n: number }>(
        'SELECT kind, count(*)::int AS n FROM candles WHERE memorial_id = $1 GROUP BY kind',
        [memorialId],
      );
      const counts = { candle: 0, flower: 0, total: 0 };
      for (const r of rows) {
        counts[r.kind] = r.n;
        counts.total += r.n;
      }
      return counts;
    },
    async delete(q: Queryable, id: string): Promise<void> {
      await q.query('DELETE FROM candles WHERE id = $1', [id]);
    },
  };
}
