import type { Queryable } from '../../db/client.ts';

export type AnswerRow = {
  question_key: string;
  text: string;
  updated_at: Date | string;
  updated_by: string | null;
};

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

    async biographyHtml(memorialId: string): Promise<string> {
      const { rows } = await db.query<{ html: string }>(
        'SELECT biography_html AS html FROM memorials WHERE id = $1',
        [memorialId],
      );
      return rows[0]?.html ?? '';
    },
  };
}
