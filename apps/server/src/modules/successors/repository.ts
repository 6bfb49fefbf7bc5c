import type { Queryable } from '../../db/client.ts';

export interface SuccessorRow {
  [key: string]: unknown;
  user_id: string | null;
  name: string | null;
  email: string | null;
  created_at: Date | string;
}

/** An owner who has been silent, with the pages they alone own that have a successor named. */
export interface SilentOwnerRow {
  [key: string]: unknown;
  user_id: string;
  email: string;
  name: string | null;
  inactivity_reminders: number;
  inactivity_reminded_at: Date | string | null;
  memorial_ids: string[];
  memorial_names: string[];
}

/** A member named as successor counts only while still a member of the page (`s` is the successor row). */
const stillThere = `(s.user_id IS NULL OR EXISTS (SELECT 1 FROM memorial_members sm
                                                   WHERE sm.memorial_id = s.memorial_id AND sm.user_id = s.user_id))`;

export function successorsRepository(db: Queryable) {
  return {
    /** The memorial, locked, with the name of the account that has this address (should it become owner). */
    async lockForHandOver(memorialId: string, email: string) {
      const { rows } = await db.query<{ name: string; owner_name: string | null }>(
        `SELECT first_name || ' ' || last_name AS name,
                (SELECT u.name FROM users u WHERE lower(u.email) = $2 AND u.deleted_at IS NULL
                  ORDER BY u.created_at LIMIT 1) AS owner_name
           FROM memorials WHERE id = $1 FOR UPDATE`,
        [memorialId, email],
      );
      return rows[0];
    },

    async find(memorialId: string): Promise<SuccessorRow | undefined> {
      const { rows } = await db.query<SuccessorRow>(
        `SELECT s.user_id, u.name, coalesce(s.email, u.email) AS email, s.created_at
           FROM memorial_successors s LEFT JOIN users u ON u.id = s.user_id
          WHERE s.memorial_id = $1 AND ${stillThere}`,
        [memorialId],
      );
      return rows[0];
    },

    async memberRole(memorialId: string, userId: string): Promise<string | null> {
      const { rows } = await db.query<{ role: string }>(
        `SELECT mm.role FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE mm.memorial_id = $1 AND mm.user_id = $2 AND u.deleted_at IS NULL`,
        [memorialId, userId],
      );
      return rows[0]?.role ?? null;
    },

    /** The member of the page with this address, if any. */
    async memberWithEmail(memorialId: string, email: string): Promise<string | null> {
      const { rows } = await db.query<{ user_id: string }>(
        `SELECT mm.user_id FROM memorial_members mm JOIN users u ON u.id = mm.user_id
           LEFT JOIN accounts a ON a.id::text = u.id
          WHERE mm.memorial_id = $1 AND lower(coalesce(a.email, u.email)) = $2 AND u.deleted_at IS NULL
          LIMIT 1`,
        [memorialId, email],
      );
      return rows[0]?.user_id ?? null;
    },

    async upsert(memorialId: string, s: { userId: string | null; email: string | null }, namedBy: string) {
      await db.query(
        `INSERT INTO memorial_successors (memorial_id, user_id, email, named_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (memorial_id) DO UPDATE
           SET user_id = EXCLUDED.user_id, email = EXCLUDED.email, named_by = EXCLUDED.named_by, updated_at = now()`,
        [memorialId, s.userId, s.email, namedBy],
      );
    },

    /** Named as someone's successor: no longer (by account or by address). */
    async removeFor(userId: string, email: string) {
      await db.query('DELETE FROM memorial_successors WHERE user_id = $1 OR lower(email) = $2', [
        userId,
        email,
      ]);
    },

    async remove(memorialId: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM memorial_successors WHERE memorial_id = $1', [
        memorialId,
      ]);
      return rowCount > 0;
    },

    /** Who came back since their last reminder: their count starts again. */
    async resetReturned(): Promise<void> {
      await db.query(
        `UPDATE users SET inactivity_reminders = 0, inactivity_reminded_at = NULL
          WHERE inactivity_reminded_at IS NOT NULL AND last_seen_at > inactivity_reminded_at`,
      );
    },

    /**
     * Owners not seen since `before` who alone own a page with a successor named (their address from their
     * account), with those pages.
     */
    async silentOwners(before: Date): Promise<SilentOwnerRow[]> {
      const { rows } = await db.query<SilentOwnerRow>(
        `SELECT u.id AS user_id, coalesce(a.email, u.email) AS email, u.name, u.inactivity_reminders,
                u.inactivity_reminded_at,
                array_agg(m.id::text ORDER BY m.id) AS memorial_ids,
                array_agg(m.first_name || ' ' || m.last_name ORDER BY m.id) AS memorial_names
           FROM users u
           LEFT JOIN accounts a ON a.id::text = u.id
           JOIN memorial_members mm ON mm.user_id = u.id AND mm.role = 'owner'
           JOIN memorials m ON m.id = mm.memorial_id
           JOIN memorial_successors s ON s.memorial_id = m.id AND ${stillThere}
          WHERE u.deleted_at IS NULL AND u.last_seen_at < $1
            AND NOT EXISTS (SELECT 1 FROM memorial_members o
                             WHERE o.memorial_id = m.id AND o.role = 'owner' AND o.user_id <> u.id)
          GROUP BY u.id, a.email`,
        [before],
      );
      return rows;
    },

    async markReminded(userId: string, count: number, at: Date | null) {
      await db.query(
        'UPDATE users SET inactivity_reminders = $2, inactivity_reminded_at = $3 WHERE id = $1',
        [userId, count, at],
      );
    },
  };
}
