import {
  HANDOVER_MEMBERS_MAX,
  type CarePage,
  type CareState,
  type Colleague,
  type ColleagueInvitation,
  type MemberRole,
  type MemorialCare,
  type MemorialStatus,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { iso, isoOrNull } from '../../shared/time.ts';

/** SQL of the partner portal: a company's colleagues and invitations, its pages for families. */
export function partnerRepository(db: Queryable) {
  return {
    /** The caller's place in the company: undefined when not a user of it, or the company is not active. */
    async membership(companyId: string, userId: string): Promise<{ isAdmin: boolean } | undefined> {
      const { rows } = await db.query<{ is_admin: boolean }>(
        `SELECT u.is_admin FROM company_users u JOIN companies c ON c.id = u.company_id AND c.state = 'active'
          WHERE u.company_id = $1 AND u.user_id = $2`,
        [companyId, userId],
      );
      return rows[0] ? { isAdmin: rows[0].is_admin } : undefined;
    },
    /** Serialises changes to a company's users (the last administrator stays). */
    async lockCompany(companyId: string) {
      await db.query('SELECT id FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
    },
    async companyName(companyId: string): Promise<string> {
      const { rows } = await db.query<{ name: string }>('SELECT name FROM companies WHERE id = $1', [
        companyId,
      ]);
      return rows[0]!.name;
    },

    async users(companyId: string, selfId: string): Promise<Colleague[]> {
      const { rows } = await db.query<{
        user_id: string;
        name: string | null;
        email: string | null;
        is_admin: boolean;
        created_at: Date | string;
      }>(
        `SELECT cu.user_id, us.name, us.email, cu.is_admin, cu.created_at
           FROM company_users cu JOIN users us ON us.id = cu.user_id
          WHERE cu.company_id = $1 ORDER BY cu.created_at, cu.user_id`,
        [companyId],
      );
      return rows.map((r) => ({
        userId: r.user_id,
        name: r.name,
        email: r.email,
        isAdmin: r.is_admin,
        isSelf: r.user_id === selfId,
        createdAt: iso(r.created_at),
      }));
    },
    async user(companyId: string, userId: string) {
      const { rows } = await db.query<{ is_admin: boolean; email: string | null }>(
        `SELECT cu.is_admin, us.email FROM company_users cu JOIN users us ON us.id = cu.user_id
          WHERE cu.company_id = $1 AND cu.user_id = $2 FOR UPDATE OF cu`,
        [companyId, userId],
      );
      return rows[0];
    },
    async countAdmins(companyId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM company_users WHERE company_id = $1 AND is_admin',
        [companyId],
      );
      return rows[0]!.n;
    },
    async setAdmin(companyId: string, userId: string, isAdmin: boolean) {
      await db.query('UPDATE company_users SET is_admin = $3 WHERE company_id = $1 AND user_id = $2', [
        companyId,
        userId,
        isAdmin,
      ]);
    },
    async removeUser(companyId: string, userId: string) {
      await db.query('DELETE FROM company_users WHERE company_id = $1 AND user_id = $2', [companyId, userId]);
    },
    async hasUserWithEmail(companyId: string, email: string): Promise<boolean> {
      const { rows } = await db.query(
        `SELECT 1 FROM company_users cu JOIN users us ON us.id = cu.user_id
          WHERE cu.company_id = $1 AND lower(us.email) = $2`,
        [companyId, email],
      );
      return rows.length > 0;
    },

    async invitations(companyId: string): Promise<ColleagueInvitation[]> {
      const { rows } = await db.query<{
        id: string;
        email: string;
        created_at: Date | string;
        expires_at: Date | string;
        expired: boolean;
      }>(
        `SELECT id, email, created_at, expires_at, expires_at <= now() AS expired
           FROM company_invitations WHERE company_id = $1 ORDER BY created_at DESC, id`,
        [companyId],
      );
      return rows.map((r) => ({
        id: r.id,
        email: r.email,
        createdAt: iso(r.created_at),
        expiresAt: iso(r.expires_at),
        expired: r.expired,
      }));
    },
    /** The invitation for this address, if any, with whether it has expired. */
    async invitationFor(companyId: string, email: string) {
      const { rows } = await db.query<{ id: string; expired: boolean }>(
        `SELECT id, expires_at <= now() AS expired FROM company_invitations
          WHERE company_id = $1 AND email = $2 FOR UPDATE`,
        [companyId, email],
      );
      return rows[0];
    },
    async insertInvitation(companyId: string, email: string, by: string, expiresAt: Date) {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO company_invitations (company_id, email, invited_by, expires_at) VALUES ($1, $2, $3, $4)
         RETURNING id`,
        [companyId, email, by, expiresAt],
      );
      return rows[0]!.id;
    },
    /** Deletes an invitation of this company; its address, or undefined when there was none. */
    async deleteInvitation(companyId: string, id: string): Promise<string | undefined> {
      const { rows } = await db.query<{ email: string }>(
        'DELETE FROM company_invitations WHERE company_id = $1 AND id = $2 RETURNING email',
        [companyId, id],
      );
      return rows[0]?.email;
    },
    /**
     * The open invitations for this (verified) address are claimed: the user joins each company (not
     * as administrator) and the invitation goes. Answers the companies joined.
     */
    async claimInvitations(email: string, userId: string) {
      const { rows } = await db.query<{ id: string; company_id: string }>(
        `DELETE FROM company_invitations WHERE email = lower($1) AND expires_at > now()
         RETURNING id, company_id`,
        [email],
      );
      const joined: { companyId: string; invitationId: string }[] = [];
      for (const r of rows) {
        const ins = await db.query(
          `INSERT INTO company_users (company_id, user_id, is_admin) VALUES ($1, $2, false)
           ON CONFLICT (company_id, user_id) DO NOTHING RETURNING user_id`,
          [r.company_id, userId],
        );
        if (ins.rows.length > 0) joined.push({ companyId: r.company_id, invitationId: r.id });
      }
      return joined;
    },

    async insertCare(c: {
      memorialId: string;
      companyId: string;
      createdBy: string;
      familyEmail: string;
      inviteId: string;
    }) {
      await db.query(
        `INSERT INTO memorial_care (memorial_id, company_id, created_by, family_email, invite_id)
         VALUES ($1, $2, $3, $4, $5)`,
        [c.memorialId, c.companyId, c.createdBy, c.familyEmail, c.inviteId],
      );
      // The company pays for a page it makes (its package): Premium from the start, so the
      // family never sees a payment screen; the portal lists what the company owes for it.
      await db.query(
        `UPDATE memorial_plans SET plan = 'premium', paid_until = NULL, payer_company_id = $2
          WHERE memorial_id = $1`,
        [c.memorialId, c.companyId],
      );
    },
    /** The page's care row with its company; `lock` takes the row for a change. */
    async care(memorialId: string, lock = false) {
      const { rows } = await db.query<{
        company_id: string;
        company_name: string;
        company_slug: string;
        family_email: string;
        invite_id: string | null;
        state: CareState;
        partner_role_allowed: boolean;
        shown_publicly: boolean;
        accepted_at: Date | string | null;
      }>(
        `SELECT mc.company_id, co.name AS company_name, co.slug AS company_slug, mc.family_email, mc.invite_id,
                mc.state, mc.partner_role_allowed, mc.shown_publicly, mc.accepted_at
           FROM memorial_care mc JOIN companies co ON co.id = mc.company_id
          WHERE mc.memorial_id = $1${lock ? ' FOR UPDATE OF mc' : ''}`,
        [memorialId],
      );
      return rows[0];
    },
    async careByInvite(inviteId: string) {
      const { rows } = await db.query<{ memorial_id: string; company_id: string; company_name: string }>(
        `SELECT mc.memorial_id, mc.company_id, co.name AS company_name
           FROM memorial_care mc JOIN companies co ON co.id = mc.company_id WHERE mc.invite_id = $1`,
        [inviteId],
      );
      return rows[0];
    },
    async handOver(memorialId: string, userId: string, choices: { partner: boolean; shown: boolean }) {
      await db.query(
        `UPDATE memorial_care SET state = 'handed_over', accepted_at = now(), accepted_by = $2,
                partner_role_allowed = $3, shown_publicly = $4
          WHERE memorial_id = $1`,
        [memorialId, userId, choices.partner, choices.shown],
      );
    },
    async setChoices(memorialId: string, partner: boolean, shown: boolean) {
      await db.query(
        'UPDATE memorial_care SET partner_role_allowed = $2, shown_publicly = $3 WHERE memorial_id = $1',
        [memorialId, partner, shown],
      );
    },
    /**
     * The page's members but `exceptUserId` (the family taking it over), oldest first, each with who sent
     * the invitation they accepted and whether they are one of the company's users. `lock` takes all the
     * rows (for the acceptance); without it the list is capped for the screen.
     */
    async handoverMembers(memorialId: string, companyId: string, exceptUserId: string, lock = false) {
      const { rows } = await db.query<{
        id: string;
        memorial_id: string;
        user_id: string;
        name: string | null;
        email: string | null;
        role: MemberRole;
        invited_by_name: string | null;
        company_user: boolean;
        created_at: Date | string;
      }>(
        `SELECT mm.id, mm.memorial_id, mm.user_id, u.name, u.email, mm.role, mm.created_at,
                (SELECT iu.name FROM guest_invites i JOIN users iu ON iu.id = i.invited_by
                  WHERE i.memorial_id = mm.memorial_id AND i.accepted_by = mm.user_id
                  ORDER BY i.accepted_at DESC LIMIT 1) AS invited_by_name,
                EXISTS (SELECT 1 FROM company_users cu WHERE cu.company_id = $2 AND cu.user_id = mm.user_id)
                  AS company_user
           FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE mm.memorial_id = $1 AND mm.user_id <> $3
          ORDER BY mm.created_at, mm.id ${lock ? 'FOR UPDATE OF mm' : `LIMIT ${HANDOVER_MEMBERS_MAX}`}`,
        [memorialId, companyId, exceptUserId],
      );
      return rows;
    },
    async openInvitationCount(memorialId: string, exceptInviteId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM guest_invites
          WHERE memorial_id = $1 AND id <> $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
        [memorialId, exceptInviteId],
      );
      return rows[0]!.n;
    },
    /** Serialises changes to the page (as its other features do); whether it is invite-only. */
    async lockMemorial(memorialId: string): Promise<{ inviteOnly: boolean }> {
      const { rows } = await db.query<{ invite_only: boolean }>(
        'SELECT invite_only FROM memorials WHERE id = $1 FOR UPDATE',
        [memorialId],
      );
      return { inviteOnly: rows[0]!.invite_only };
    },
    async isCompanyUser(companyId: string, userId: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM company_users WHERE company_id = $1 AND user_id = $2', [
        companyId,
        userId,
      ]);
      return rows.length > 0;
    },

    /**
     * The company's pages, newest first, with their counters: visitors are the page's members (every
     * role, the family included) plus the one-time guest links that were used; memories the published
     * ones; candles the candles and flowers (docs/partners.md).
     */
    async pages(companyId: string, memorialId?: string): Promise<CarePage[]> {
      const { rows } = await db.query<{
        memorial_id: string;
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
        status: MemorialStatus;
        state: CareState;
        partner_role_allowed: boolean;
        shown_publicly: boolean;
        family_email: string;
        created_at: Date | string;
        accepted_at: Date | string | null;
        members: number;
        links: number;
        paid_by_company: boolean;
        settled: boolean;
        memories: number;
        candles: number;
      }>(
        `SELECT mc.memorial_id, m.first_name, m.last_name,
                to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, to_char(m.death_date, 'YYYY-MM-DD') AS death_date,
                m.status, mc.state, mc.partner_role_allowed, mc.shown_publicly, mc.family_email, mc.created_at,
                mc.accepted_at,
                (SELECT count(*)::int FROM memorial_members x WHERE x.memorial_id = m.id) AS members,
                (SELECT count(*)::int FROM guest_link_tokens g WHERE g.memorial_id = m.id AND g.used_at IS NOT NULL)
                  AS links,
                COALESCE(c.memory_count, 0)::int AS memories, COALESCE(c.candle_count, 0)::int AS candles,
                (pl.payer_company_id IS NOT DISTINCT FROM mc.company_id) AS paid_by_company,
                (pl.company_settled_by IS NOT NULL) AS settled
           FROM memorial_care mc JOIN memorials m ON m.id = mc.memorial_id
           LEFT JOIN memorial_counts c ON c.memorial_id = m.id
           LEFT JOIN memorial_plans pl ON pl.memorial_id = m.id
          WHERE mc.company_id = $1 AND ($2::uuid IS NULL OR mc.memorial_id = $2::uuid)
          ORDER BY mc.created_at DESC, mc.memorial_id LIMIT 500`,
        [companyId, memorialId ?? null],
      );
      return rows.map((r) => ({
        memorialId: r.memorial_id,
        firstName: r.first_name,
        lastName: r.last_name,
        birthDate: r.birth_date,
        deathDate: r.death_date,
        status: r.status,
        state: r.state,
        partnerRole: r.state === 'waiting' || r.partner_role_allowed,
        shownPublicly: r.state === 'handed_over' && r.shown_publicly,
        familyEmail: r.family_email,
        createdAt: iso(r.created_at),
        acceptedAt: isoOrNull(r.accepted_at),
        counts: { visitors: r.members + r.links, memories: r.memories, candles: r.candles },
        paidByCompany: r.paid_by_company,
        settledByCompany: r.paid_by_company && r.settled,
      }));
    },
  };
}

export const toMemorialCare = (
  r: NonNullable<Awaited<ReturnType<ReturnType<typeof partnerRepository>['care']>>>,
): MemorialCare => ({
  companyName: r.company_name,
  companySlug: r.company_slug,
  state: r.state,
  partnerRoleAllowed: r.partner_role_allowed,
  shownPublicly: r.shown_publicly,
  acceptedAt: isoOrNull(r.accepted_at),
});
