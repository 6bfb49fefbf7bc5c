import type { Queryable } from '../../db/client.ts';

export type AnswerRow = {
  question_key: string;
  text: string;
  updated_at: Date | string;
  updated_by: string | null;
};

export type PersonRow = {
  first_name: string;
  last_name: string;
  birth_date: string | null;
  death_date: string | null;
  birth_place: string | null;
  death_place: string | null;
};

export type MemorySourceRow = { id: string; year_label: string; body: string; author: string };

/** The biography template's answers (migration 115), one row per question. */
export function keepsakesRepository(db: Queryable) {
  return {
    async listAnswers(memorialId: string): Promise<AnswerRow[]> {
      const { rows } = await db.query<AnswerRow>(
        `SELECT a.question_key, a.text, a.updated_at, u.name AS updated_by
           FROM biography_answers a LEFT JOIN users u ON u.id = a.updated_by
          WHERE a.memorial_id = $1`,
        [memorialId],
      );
      return rows;
    },

    async saveAnswer(
      memorialId: string,
      key: string,
      text: string,
      userId: string | null,
    ): Promise<AnswerRow> {
      const { rows } = await db.query<AnswerRow>(
        `WITH saved AS (
           INSERT INTO biography_answers (memorial_id, question_key, text, updated_by)
           VALUES ($1, $2, $3, $4)
           ON CONFLICT (memorial_id, question_key)
             DO UPDATE SET text = EXCLUDED.text, updated_by = EXCLUDED.updated_by, updated_at = now()
           RETURNING question_key, text, updated_at, updated_by)
         SELECT s.question_key, s.text, s.updated_at, u.name AS updated_by
           FROM saved s LEFT JOIN users u ON u.id = s.updated_by`,
        [memorialId, key, text, userId],
      );
      return rows[0]!;
    },

    /** Locks the memorial row for the rest of the transaction (as the memorials module does for its changes). */
    async lockMemorial(memorialId: string): Promise<void> {
      await db.query('SELECT 1 FROM memorials WHERE id = $1 FOR UPDATE', [memorialId]);
    },

    /** The biography as the memorials module stores it (already through the allow-list). */
    async setBiography(memorialId: string, html: string, userId: string | null): Promise<void> {
      await db.query(
        `UPDATE memorials SET biography_html = $2, biography_updated_at = now(), biography_updated_by = $3,
                updated_at = now() WHERE id = $1`,
        [memorialId, html, userId],
      );
    },

    /** What the AI draft may tell the model about the person (docs/keepsakes.md 'AI-assisted draft'). */
    async person(memorialId: string): Promise<PersonRow | null> {
      const { rows } = await db.query<PersonRow>(
        `SELECT first_name, last_name, birth_date::text AS birth_date, death_date::text AS death_date,
                birth_place, death_place
           FROM memorials WHERE id = $1`,
        [memorialId],
      );
      return rows[0] ?? null;
    },

    /** The published memories that are not hidden, oldest first: what the family may choose to send. */
    async publishedMemories(memorialId: string): Promise<MemorySourceRow[]> {
      const { rows } = await db.query<MemorySourceRow>(
        `SELECT mo.id::text AS id, mo.year_label, mo.body, coalesce(u.name, mo.author_name, 'Onbekend') AS author
           FROM memories mo LEFT JOIN users u ON u.id = mo.author_user_id
          WHERE mo.memorial_id = $1 AND mo.status = 'published' AND mo.hidden_at IS NULL
          ORDER BY mo.published_at, mo.id
          LIMIT 500`,
        [memorialId],
      );
      return rows;
    },

    async biographyHtml(memorialId: string): Promise<string> {
      const { rows } = await db.query<{ html: string }>(
        'SELECT biography_html AS html FROM memorials WHERE id = $1',
        [memorialId],
      );
      return rows[0]?.html ?? '';
    },
  };
}
