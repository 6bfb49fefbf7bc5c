import type { Queryable } from '../../db/client.ts';

export interface MomentRow {
  id: string;
  memorial_id: string;
  moment_date: string;
  starts_at: string;
  duration_minutes: number;
  title: string | null;
  starts_at_instant: Date | string;
  ends_at_instant: Date | string;
  [key: string]: unknown;
}

export interface MomentFields {
  date: string;
  startTime: string;
  durationMinutes: number;
  title: string | null;
  startsAt: Date;
  endsAt: Date;
}

const columns = `id, memorial_id, moment_date::text AS moment_date, to_char(starts_at, 'HH24:MI') AS starts_at,
  duration_minutes, title, starts_at_instant, ends_at_instant`;

export function candleMomentRepository(db: Queryable) {
  return {
    /** The moments that end after `from`, soonest first. */
    async upcoming(memorialId: string, from: Date): Promise<MomentRow[]> {
      const { rows } = await db.query<MomentRow>(
        `SELECT ${columns} FROM candle_moments WHERE memorial_id = $1 AND ends_at_instant > $2
          ORDER BY starts_at_instant, id`,
        [memorialId, from],
      );
      return rows;
    },
    /** The moment on at `at`, if any (the earliest when they overlap). */
    async current(memorialId: string, at: Date): Promise<MomentRow | undefined> {
      const { rows } = await db.query<MomentRow>(
        `SELECT ${columns} FROM candle_moments
          WHERE memorial_id = $1 AND starts_at_instant <= $2 AND ends_at_instant > $2
          ORDER BY starts_at_instant, id LIMIT 1`,
        [memorialId, at],
      );
      return rows[0];
    },
    async insert(memorialId: string, userId: string | null, f: MomentFields): Promise<MomentRow> {
      const { rows } = await db.query<MomentRow>(
        `INSERT INTO candle_moments (memorial_id, moment_date, starts_at, duration_minutes, title,
                                     starts_at_instant, ends_at_instant, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
        [memorialId, f.date, f.startTime, f.durationMinutes, f.title, f.startsAt, f.endsAt, userId],
      );
      return rows[0]!;
    },
    async update(memorialId: string, id: string, f: MomentFields): Promise<MomentRow | undefined> {
      const { rows } = await db.query<MomentRow>(
        `UPDATE candle_moments SET moment_date = $3, starts_at = $4, duration_minutes = $5, title = $6,
                starts_at_instant = $7, ends_at_instant = $8, updated_at = now()
          WHERE memorial_id = $1 AND id = $2 RETURNING ${columns}`,
        [memorialId, id, f.date, f.startTime, f.durationMinutes, f.title, f.startsAt, f.endsAt],
      );
      return rows[0];
    },
    async delete(memorialId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM candle_moments WHERE memorial_id = $1 AND id = $2', [
        memorialId,
        id,
      ]);
      return rowCount > 0;
    },
    async countUpcoming(memorialId: string, from: Date, except: string | null): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM candle_moments
          WHERE memorial_id = $1 AND ends_at_instant > $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`,
        [memorialId, from, except],
      );
      return rows[0]!.n;
    },
    async lifeDates(memorialId: string): Promise<{ birth: string | null; death: string | null }> {
      const { rows } = await db.query<{ birth: string | null; death: string | null }>(
        'SELECT birth_date::text AS birth, death_date::text AS death FROM memorials WHERE id = $1',
        [memorialId],
      );
      return rows[0] ?? { birth: null, death: null };
    },
  };
}

/** Who is with a kaarsjesmoment now: a row per open stream (`candle_presence`). */
export function candlePresenceRepository(db: Queryable) {
  return {
    /** People, not connections: one person's tabs and reconnects count once. */
    async count(memorialId: string, seenAfter: Date): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(DISTINCT COALESCE(person, id::text))::int AS n FROM candle_presence
          WHERE memorial_id = $1 AND seen_at > $2`,
        [memorialId, seenAfter],
      );
      return rows[0]!.n;
    },

    async add(id: string, memorialId: string, momentId: string, at: Date, person: string | null) {
      await db.query(
        'INSERT INTO candle_presence (id, memorial_id, moment_id, seen_at, person) VALUES ($1, $2, $3, $4, $5)',
        [id, memorialId, momentId, at, person],
      );
    },

    /** Marks these streams seen at `at`; returns when each one's moment ends. */
    async touch(ids: string[], at: Date) {
      const { rows } = await db.query<{ id: string; ends_at: Date | string }>(
        `UPDATE candle_presence p SET seen_at = $2 FROM candle_moments m
          WHERE p.id = ANY($1::uuid[]) AND m.id = p.moment_id RETURNING p.id, m.ends_at_instant AS ends_at`,
        [ids, at],
      );
      return rows;
    },

    async drop(id: string) {
      await db.query('DELETE FROM candle_presence WHERE id = $1', [id]);
    },

    async dropSeenBefore(before: Date) {
      await db.query('DELETE FROM candle_presence WHERE seen_at < $1', [before]);
    },
  };
}
