import type { Member, MemberRole } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export interface MemberRow {
  id: string;
  memorial_id: string;
  user_id: string;
  name: string | null;
  email: string | null;
  role: MemberRole;
  created_at: Date | string;
  updated_at: Date | string;
  [key: string]: unknown;
}

export const toMember = (r: MemberRow, selfUserId: string | null): Member => ({
  id: r.id,
  memorialId: r.memorial_id,
  userId: r.user_id,
  name: r.name,
  email: r.email,
  role: r.role,
  isSelf: r.user_id === selfUserId,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

const columns = `mm.id, mm.memorial_id, mm.user_id, u.name, u.email, mm.role, mm.created_at, mm.updated_at`;

/** Role order for a successor: the first member in this order becomes owner (longest member first). */
const SUCCESSION = `CASE role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 WHEN 'contributor' THEN 2 ELSE 3 END`;

export function memberRepository(db: Queryable) {
  return {
    /** The memorials this user is the only owner of, locked, in a fixed order. */
    async ownedAlone(q: Queryable, userId: string): Promise<string[]> {
      const { rows } = await q.query<{ memorial_id: string }>(
        `SELECT mm.memorial_id FROM memorial_members mm
          WHERE mm.user_id = $1 AND mm.role = 'owner'
            AND NOT EXISTS (SELECT 1 FROM memorial_members o WHERE o.memorial_id = mm.memorial_id
                              AND o.role = 'owner' AND o.user_id <> $1)
          ORDER BY mm.memorial_id
          FOR UPDATE`,
        [userId],
      );
      return rows.map((r) => r.memorial_id);
    },

    /** The next member (editor first, the longest member first) but this user becomes owner. */
    async promoteNextOwner(q: Queryable, memorialId: string, exceptUserId: string) {
      const { rows } = await q.query<{ id: string; user_id: string }>(
        `UPDATE memorial_members SET role = 'owner', updated_at = now()
          WHERE id = (SELECT id FROM memorial_members
                       WHERE memorial_id = $1 AND user_id <> $2
                       ORDER BY ${SUCCESSION}, created_at, id LIMIT 1)
          RETURNING id, user_id`,
        [memorialId, exceptUserId],
      );
      return rows[0];
    },

    /** Every membership of the user ends. */
    async removeAllOf(q: Queryable, userId: string) {
      await q.query('DELETE FROM memorial_members WHERE user_id = $1', [userId]);
    },

    /** The memorial a membership belongs to (for the access check); undefined when missing. */
    async memorialOf(memberId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ memorial_id: string }>(
        'SELECT memorial_id FROM memorial_members WHERE id = $1',
        [memberId],
      );
      return rows[0]?.memorial_id;
    },

    async findById(q: Queryable, memberId: string, forUpdate = false): Promise<MemberRow | undefined> {
      const { rows } = await q.query<MemberRow>(
        `SELECT ${columns} FROM memorial_members mm JOIN users u ON u.id = mm.user_id WHERE mm.id = $1${forUpdate ? ' FOR UPDATE OF mm' : ''}`,
        [memberId],
      );
      return rows[0];
    },

    async findByUser(q: Queryable, memorialId: string, userId: string): Promise<MemberRow | undefined> {
      const { rows } = await q.query<MemberRow>(
        `SELECT ${columns} FROM memorial_members mm JOIN users u ON u.id = mm.user_id WHERE mm.memorial_id = $1 AND mm.user_id = $2`,
        [memorialId, userId],
      );
      return rows[0];
    },

    async list(opts: {
      memorialId: string;
      role?: MemberRole;
      after: [string, string] | null;
      limit: number;
    }) {
      const params: unknown[] = [opts.memorialId, opts.limit + 1];
      const where = ['mm.memorial_id = $1'];
      if (opts.role) {
        params.push(opts.role);
        where.push(`mm.role = $${params.length}`);
      }
      if (opts.after) {
        params.push(opts.after[0], opts.after[1]);
        where.push(`(mm.created_at, mm.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      const { rows } = await db.query<MemberRow & { cursor_ts: string }>(
        `SELECT ${columns}, mm.created_at::text AS cursor_ts
           FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE ${where.join(' AND ')}
          ORDER BY mm.created_at, mm.id LIMIT $2`,
        params,
      );
      return rows;
    },

    async countOwners(q: Queryable, memorialId: string): Promise<number> {
      const { rows } = await q.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM memorial_members WHERE memorial_id = $1 AND role = 'owner'`,
        [memorialId],
      );
      return rows[0]!.n;
    },

    async setRole(q: Queryable, memberId: string, role: MemberRole): Promise<void> {
      await q.query('UPDATE memorial_members SET role = $2, updated_at = now() WHERE id = $1', [
        memberId,
        role,
      ]);
    },

    async remove(q: Queryable, memberId: string): Promise<void> {
      await q.query('DELETE FROM memorial_members WHERE id = $1', [memberId]);
    },

    /** Adds a member, or raises an existing membership to `role` when that is stronger. Returns the membership. */
    async upsertAtLeast(
      q: Queryable,
      memorialId: string,
      userId: string,
      role: MemberRole,
      rank: MemberRole[],
    ): Promise<{ id: string; role: MemberRole; created: boolean; previous: MemberRole | null }> {
      const existing = await q.query<{ id: string; role: MemberRole }>(
        'SELECT id, role FROM memorial_members WHERE memorial_id = $1 AND user_id = $2 FOR UPDATE',
        [memorialId, userId],
      );
      const row = existing.rows[0];
      if (!row) {
        const { rows } = await q.query<{ id: string }>(
          'INSERT INTO memorial_members (memorial_id, user_id, role) VALUES ($1, $2, $3) RETURNING id',
          [memorialId, userId, role],
        );
        return { id: rows[0]!.id, role, created: true, previous: null };
      }
      // rank is strongest first: a lower index is a stronger role.
      if (rank.indexOf(role) < rank.indexOf(row.role)) {
        await q.query('UPDATE memorial_members SET role = $2, updated_at = now() WHERE id = $1', [
          row.id,
          role,
        ]);
        return { id: row.id, role, created: false, previous: row.role };
      }
      return { id: row.id, role: row.role, created: false, previous: row.role };
    },
  };
}
