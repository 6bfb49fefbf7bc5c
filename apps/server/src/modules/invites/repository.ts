import type { Invite, InviteStatus, MemberRole } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { isoOrNull } from '../../shared/time.ts';

export interface InviteRow {
  id: string;
  memorial_id: string;
  email: string;
  name: string | null;
  role: MemberRole;
  invited_by: string | null;
  invited_by_name: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  last_sent_at: Date | string | null;
  send_count: number;
  revoked_at: Date | string | null;
  accepted_at: Date | string | null;
  accepted_by: string | null;
  expired: boolean;
  [key: string]: unknown;
}

export const statusOf = (r: Pick<InviteRow, 'accepted_at' | 'revoked_at' | 'expired'>): InviteStatus =>
  r.accepted_at ? 'accepted' : r.revoked_at ? 'revoked' : r.expired ? 'expired' : 'pending';

export const toInvite = (r: InviteRow): Invite => ({
  id: r.id,
  memorialId: r.memorial_id,
  email: r.email,
  name: r.name,
  role: r.role,
  status: statusOf(r),
  invitedByName: r.invited_by_name,
  createdAt: new Date(r.created_at).toISOString(),
  expiresAt: new Date(r.expires_at).toISOString(),
  lastSentAt: isoOrNull(r.last_sent_at),
  sendCount: r.send_count,
  acceptedAt: isoOrNull(r.accepted_at),
  revokedAt: isoOrNull(r.revoked_at),
});

const columns = `i.id, i.memorial_id, i.email, i.name, i.role, i.invited_by, u.name AS invited_by_name, i.created_at,
  i.expires_at, i.last_sent_at, i.send_count, i.revoked_at, i.accepted_at, i.accepted_by, (i.expires_at <= now()) AS expired`;
const from = `FROM guest_invites i LEFT JOIN users u ON u.id = i.invited_by`;

const statusWhere: Record<InviteStatus, string> = {
  pending: 'i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()',
  expired: 'i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at <= now()',
  accepted: 'i.accepted_at IS NOT NULL',
  revoked: 'i.revoked_at IS NOT NULL',
};

export function inviteRepository(db: Queryable) {
  return {
    async memorialOf(inviteId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ memorial_id: string }>(
        'SELECT memorial_id FROM guest_invites WHERE id = $1',
        [inviteId],
      );
      return rows[0]?.memorial_id;
    },

    async findById(q: Queryable, id: string, forUpdate = false): Promise<InviteRow | undefined> {
      const { rows } = await q.query<InviteRow>(
        `SELECT ${columns} ${from} WHERE i.id = $1${forUpdate ? ' FOR UPDATE OF i' : ''}`,
        [id],
      );
      return rows[0];
    },

    async findByCodeHash(q: Queryable, codeHash: string, forUpdate = false) {
      const { rows } = await q.query<InviteRow & { first_name: string; last_name: string }>(
        `SELECT ${columns}, m.first_name, m.last_name ${from} JOIN memorials m ON m.id = i.memorial_id
          WHERE i.code_hash = $1${forUpdate ? ' FOR UPDATE OF i' : ''}`,
        [codeHash],
      );
      return rows[0];
    },

    /** Is a user with this e-mail address already a member? */
    async memberWithEmail(q: Queryable, memorialId: string, email: string): Promise<boolean> {
      const { rows } = await q.query(
        `SELECT 1 FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE mm.memorial_id = $1 AND lower(u.email) = lower($2) LIMIT 1`,
        [memorialId, email],
      );
      return rows.length > 0;
    },

    /** The open (not accepted, not revoked) invite for this address, expired or not. */
    async openForEmail(q: Queryable, memorialId: string, email: string) {
      const { rows } = await q.query<{ id: string; expired: boolean }>(
        `SELECT id, expires_at <= now() AS expired FROM guest_invites
          WHERE memorial_id = $1 AND lower(email) = lower($2) AND revoked_at IS NULL AND accepted_at IS NULL`,
        [memorialId, email],
      );
      return rows[0];
    },

    async insert(
      q: Queryable,
      i: {
        memorialId: string;
        email: string;
        name: string | null;
        role: MemberRole;
        codeHash: string;
        invitedBy: string;
        expiresAt: Date;
      },
    ) {
      const { rows } = await q.query<{ id: string }>(
        `INSERT INTO guest_invites (memorial_id, email, name, role, code_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [i.memorialId, i.email, i.name, i.role, i.codeHash, i.invitedBy, i.expiresAt],
      );
      return rows[0]!.id;
    },

    /** The page's invites not accepted or revoked (expired or not), but `exceptId`, oldest first. */
    async openIds(q: Queryable, memorialId: string, exceptId: string): Promise<string[]> {
      const { rows } = await q.query<{ id: string }>(
        `SELECT id FROM guest_invites
          WHERE memorial_id = $1 AND id <> $2 AND accepted_at IS NULL AND revoked_at IS NULL
          ORDER BY created_at, id`,
        [memorialId, exceptId],
      );
      return rows.map((r) => r.id);
    },

    /** The invite is a family's invitation to take over a company's page (companies/partner-service.ts). */
    async isHandover(q: Queryable, id: string): Promise<boolean> {
      const { rows } = await q.query('SELECT 1 FROM memorial_care WHERE invite_id = $1', [id]);
      return rows.length > 0;
    },

    async markSent(q: Queryable, id: string) {
      await q.query(
        'UPDATE guest_invites SET last_sent_at = now(), send_count = send_count + 1 WHERE id = $1',
        [id],
      );
    },

    async renewCode(q: Queryable, id: string, codeHash: string, expiresAt: Date) {
      await q.query('UPDATE guest_invites SET code_hash = $2, expires_at = $3 WHERE id = $1', [
        id,
        codeHash,
        expiresAt,
      ]);
    },

    async revoke(q: Queryable, id: string, by: string | null) {
      await q.query(
        'UPDATE guest_invites SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL AND accepted_at IS NULL',
        [id, by],
      );
    },

    async accept(q: Queryable, id: string, userId: string) {
      await q.query('UPDATE guest_invites SET accepted_at = now(), accepted_by = $2 WHERE id = $1', [
        id,
        userId,
      ]);
    },

    async list(opts: {
      memorialId: string;
      status?: InviteStatus;
      after: [string, string] | null;
      limit: number;
    }) {
      const params: unknown[] = [opts.memorialId, opts.limit + 1];
      // The family's invitation to take over a company's page is the company's to send (its portal), not listed here.
      const where = [
        'i.memorial_id = $1',
        'NOT EXISTS (SELECT 1 FROM memorial_care mc WHERE mc.invite_id = i.id)',
      ];
      if (opts.status) where.push(statusWhere[opts.status]);
      if (opts.after) {
        params.push(opts.after[0], opts.after[1]);
        where.push(`(i.created_at, i.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
      }
      const { rows } = await db.query<InviteRow & { cursor_ts: string }>(
        `SELECT ${columns}, i.created_at::text AS cursor_ts ${from}
          WHERE ${where.join(' AND ')} ORDER BY i.created_at DESC, i.id DESC LIMIT $2`,
        params,
      );
      return rows;
    },
  };
}

/** Invitations to an address go (its account was deleted). */
export async function removeInvitesTo(q: Queryable, email: string) {
  await q.query('DELETE FROM guest_invites WHERE lower(email) = $1', [email]);
}
