import type { Queryable } from '../../db/client.ts';

/** A memorial's deletion, restore and removal (`memorials.deleted_at` and on, `memorial_removals`). */
export const memorialDeletionRepository = {
  /** Hides and archives the memorial, keeping its status for a restore; undefined when gone or deleted. */
  async markDeleted(q: Queryable, memorialId: string, at: Date, deletedBy: string, removeAfter: Date) {
    const { rows } = await q.query<{ first_name: string; last_name: string }>(
      `UPDATE memorials SET status_before_delete = status, status = 'archived', deleted_at = $2,
              deleted_by = $3, remove_after = $4, updated_at = now()
        WHERE id = $1 AND deleted_at IS NULL
        RETURNING first_name, last_name`,
      [memorialId, at, deletedBy, removeAfter],
    );
    return rows[0];
  },

  /** The owners to mail, longest owner first. */
  async owners(q: Queryable, memorialId: string) {
    const { rows } = await q.query<{ email: string; name: string | null }>(
      `SELECT u.email, u.name FROM memorial_members mm JOIN users u ON u.id = mm.user_id
        WHERE mm.memorial_id = $1 AND mm.role = 'owner' AND u.email IS NOT NULL AND u.deleted_at IS NULL
        ORDER BY mm.created_at`,
      [memorialId],
    );
    return rows;
  },

  /** The deleted memorials this user owns that can still be restored at `at`. */
  async deletedOwnedBy(q: Queryable, userId: string, at: Date) {
    const { rows } = await q.query<{
      id: string;
      first_name: string;
      last_name: string;
      deleted_at: Date;
      remove_after: Date;
    }>(
      `SELECT m.id, m.first_name, m.last_name, m.deleted_at, m.remove_after
         FROM memorials m JOIN memorial_members mm ON mm.memorial_id = m.id
        WHERE mm.user_id = $1 AND mm.role = 'owner' AND m.deleted_at IS NOT NULL AND m.remove_after > $2
        ORDER BY m.deleted_at DESC, m.id
        LIMIT 100`,
      [userId, at],
    );
    return rows;
  },

  /** The deleted memorial, locked, when this user owns it. */
  async lockDeletedOwnedBy(q: Queryable, memorialId: string, userId: string) {
    const { rows } = await q.query<{ remove_after: Date }>(
      `SELECT m.remove_after FROM memorials m
         JOIN memorial_members mm ON mm.memorial_id = m.id AND mm.user_id = $2 AND mm.role = 'owner'
        WHERE m.id = $1 AND m.deleted_at IS NOT NULL
        FOR UPDATE OF m`,
      [memorialId, userId],
    );
    return rows[0];
  },

  async restore(q: Queryable, memorialId: string) {
    await q.query(
      `UPDATE memorials SET status = status_before_delete, status_before_delete = NULL, deleted_at = NULL,
              deleted_by = NULL, remove_after = NULL, updated_at = now()
        WHERE id = $1`,
      [memorialId],
    );
  },

  /** When a deleted memorial is due for removal; undefined when it is not deleted (any more). */
  async removeAfter(q: Queryable, memorialId: string) {
    const { rows } = await q.query<{ remove_after: Date }>(
      'SELECT remove_after FROM memorials WHERE id = $1 AND deleted_at IS NOT NULL',
      [memorialId],
    );
    return rows[0]?.remove_after;
  },

  /** Keeps that it happened (by whom, when); false when it was not deleted or is recorded already. */
  async recordRemoval(q: Queryable, memorialId: string): Promise<boolean> {
    const { rowCount } = await q.query(
      `INSERT INTO memorial_removals (memorial_id, deleted_by, deleted_at)
       SELECT id, deleted_by, deleted_at FROM memorials WHERE id = $1 AND deleted_at IS NOT NULL
       ON CONFLICT (memorial_id) DO NOTHING`,
      [memorialId],
    );
    return rowCount !== 0;
  },

  async remove(q: Queryable, memorialId: string) {
    await q.query('DELETE FROM memorials WHERE id = $1 AND deleted_at IS NOT NULL', [memorialId]);
  },
};
