import type { Queryable } from '../../db/client.ts';

export interface ExampleMemorialRow {
  id: string;
  status: string;
  [key: string]: unknown;
}

/** SQL for seeding the example memorials; only the seeder uses it. */
export function examplesRepository(db: Queryable) {
  return {
    async findMemorial(id: string): Promise<ExampleMemorialRow | undefined> {
      const { rows } = await db.query<ExampleMemorialRow>(
        'SELECT id::text AS id, status FROM memorials WHERE id = $1',
        [id],
      );
      return rows[0];
    },

    /** Removes a half-seeded example (a start that stopped midway); its rows cascade, its files are queued for removal. */
    async deleteMemorial(id: string): Promise<void> {
      await db.query('DELETE FROM memorials WHERE id = $1', [id]);
    },

    async ensureSystemUser(q: Queryable, id: string, name: string): Promise<void> {
      await q.query(
        `INSERT INTO users (id, email, name) VALUES ($1, NULL, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name`,
        [id, name],
      );
    },

    /** Inserts the memorial as a concept (it becomes active when everything else is in place); false if it already exists. */
    async insertMemorial(
      q: Queryable,
      m: {
        id: string;
        firstName: string;
        lastName: string;
        birthDate: string;
        deathDate: string;
        birthPlace: string;
        deathPlace: string;
        quote: string;
        biographyHtml: string;
        createdBy: string;
        codeHash: string;
        codeEncrypted: string;
      },
    ): Promise<boolean> {
      const { rows } = await q.query(
        `INSERT INTO memorials (id, first_name, last_name, birth_date, death_date, birth_place, death_place, quote,
                                biography_html, biography_updated_at, biography_updated_by, visibility, status,
                                created_by, access_code_hash, access_code_encrypted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), $10, 'public', 'concept', $10, $11, $12)
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          m.id,
          m.firstName,
          m.lastName,
          m.birthDate,
          m.deathDate,
          m.birthPlace,
          m.deathPlace,
          m.quote,
          m.biographyHtml,
          m.createdBy,
          m.codeHash,
          m.codeEncrypted,
        ],
      );
      // The examples are shown for good: Premium, never read-only (docs/plans.md).
      if (rows.length > 0)
        await q.query(`UPDATE memorial_plans SET plan = 'premium' WHERE memorial_id = $1`, [m.id]);
      return rows.length > 0;
    },

    async insertOwner(q: Queryable, memorialId: string, userId: string): Promise<void> {
      await q.query(
        `INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, 'owner') ON CONFLICT DO NOTHING`,
        [memorialId, userId],
      );
    },

    /** A published memory by a named person without an account here, written `daysAgo` days ago. */
    async insertMemory(
      q: Queryable,
      m: { memorialId: string; yearLabel: string; text: string; authorName: string; daysAgo: number },
    ): Promise<string> {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO memories (memorial_id, year_label, body, status, author_kind, author_user_id, author_name,
                               published_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'published', 'user', NULL, $4,
                 now() - make_interval(days => $5), now() - make_interval(days => $5), now() - make_interval(days => $5))
         RETURNING id::text AS id`,
        [m.memorialId, m.yearLabel, m.text, m.authorName, m.daysAgo],
      );
      return rows[0]!.id;
    },

    /** Loves by people without an account (an example-only guest id per name). */
    async insertLoves(q: Queryable, memoryId: string, names: string[]): Promise<void> {
      for (const [i, name] of names.entries()) {
        await q.query(
          `INSERT INTO memory_loves (memory_id, guest_token_id, name, created_at)
           VALUES ($1, $2, $3, now() - make_interval(mins => $4))`,
          [memoryId, `example:${memoryId}:${i}`, name, (names.length - i) * 17],
        );
      }
    },

    async insertCandle(
      q: Queryable,
      c: {
        memorialId: string;
        kind: 'candle' | 'flower';
        name: string;
        message: string | null;
        hoursAgo: number;
      },
    ): Promise<void> {
      await q.query(
        `INSERT INTO candles (memorial_id, kind, name, message, created_at)
         VALUES ($1, $2, $3, $4, now() - make_interval(hours => $5))`,
        [c.memorialId, c.kind, c.name, c.message, c.hoursAgo],
      );
    },

    async setCoverAndActivate(
      q: Queryable,
      memorialId: string,
      coverMediaId: string | null,
      publishedDaysAgo: number,
    ): Promise<void> {
      await q.query(
        `UPDATE memorials SET cover_media_id = $2, status = 'active',
                published_at = now() - make_interval(days => $3), updated_at = now()
          WHERE id = $1`,
        [memorialId, coverMediaId, publishedDaysAgo],
      );
    },
  };
}
