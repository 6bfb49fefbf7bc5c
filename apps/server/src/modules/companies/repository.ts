import type { AccountRoles, CompanyRequest, CompanyResponse, TeamCompany } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';

interface CompanyRow {
  id: string;
  status: CompanyResponse['status'];
  company_type: CompanyResponse['companyType'];
  company_name: string;
  first_name: string;
  last_name: string;
  street_name: string;
  house_number: string;
  postal_code: string;
  phone_number: string;
  email: string;
  service_description: string | null;
  additional_info: string | null;
  created_at: Date | string;
  decided_at?: Date | string | null;
  rejection_reason?: string | null;
  slug?: string | null;
  state?: 'active' | 'suspended' | null;
  [key: string]: unknown;
}

const toCompany = (r: CompanyRow): CompanyResponse => ({
  id: r.id,
  status: r.status,
  companyType: r.company_type,
  companyName: r.company_name,
  firstName: r.first_name,
  lastName: r.last_name,
  streetName: r.street_name,
  houseNumber: r.house_number,
  postalCode: r.postal_code,
  phoneNumber: r.phone_number,
  email: r.email,
  serviceDescription: r.service_description,
  additionalInfo: r.additional_info,
  createdAt: new Date(r.created_at).toISOString(),
  decidedAt: r.decided_at ? new Date(r.decided_at).toISOString() : null,
  rejectionReason: r.rejection_reason ?? null,
  company: r.slug && r.state ? { slug: r.slug, state: r.state } : null,
});

/** An application with its company, when one was made of it. */
const withCompany = `SELECT r.*, c.slug, c.state FROM company_requests r LEFT JOIN companies c ON c.id = r.id`;

export function companyRepository(db: Queryable) {
  return {
    async insert(req: CompanyRequest): Promise<CompanyResponse> {
      const { rows } = await db.query<CompanyRow>(
        `INSERT INTO company_requests (company_type, company_name, first_name, last_name, street_name,
           house_number, postal_code, phone_number, email, service_description, additional_info, extra_info)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING *`,
        [
          req.companyType,
          req.companyName,
          req.firstName,
          req.lastName,
          req.streetName,
          req.houseNumber,
          req.postalCode.toUpperCase().replace(/\s+/, ' '),
          req.phoneNumber,
          req.email.toLowerCase(),
          req.companyType === 'OtherServiceProvider' ? (req.serviceDescription ?? null) : null,
          req.additionalInfo || null,
          req.extraInfo || null,
        ],
      );
      return toCompany(rows[0]!);
    },
    async findById(id: string): Promise<CompanyResponse | undefined> {
      const { rows } = await db.query<CompanyRow>(`${withCompany} WHERE r.id = $1`, [id]);
      return rows[0] ? toCompany(rows[0]) : undefined;
    },
    /** The pending applications, oldest first. */
    async pending(limit: number): Promise<CompanyResponse[]> {
      const { rows } = await db.query<CompanyRow>(
        `${withCompany} WHERE r.status = 'pending' ORDER BY r.created_at, r.id LIMIT $1`,
        [limit],
      );
      return rows.map(toCompany);
    },
    /** Locks a pending application for its decision; undefined when it is missing or decided. */
    async lockPending(id: string): Promise<{ found: boolean; application?: CompanyResponse }> {
      const { rows } = await db.query<CompanyRow>('SELECT * FROM company_requests WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      const row = rows[0];
      if (!row) return { found: false };
      return row.status === 'pending' ? { found: true, application: toCompany(row) } : { found: true };
    },
    async decide(id: string, status: 'approved' | 'rejected', by: string, reason: string | null) {
      await db.query(
        `UPDATE company_requests SET status = $2, decided_at = now(), decided_by = $3, rejection_reason = $4
          WHERE id = $1`,
        [id, status, by, reason],
      );
    },
    /** Slugs already taken that start with `base`. */
    async slugsLike(base: string): Promise<Set<string>> {
      const { rows } = await db.query<{ slug: string }>(
        `SELECT slug FROM companies WHERE slug = $1 OR slug LIKE $1 || '-%'`,
        [base],
      );
      return new Set(rows.map((r) => r.slug));
    },
    async createCompany(a: CompanyResponse, slug: string) {
      await db.query(
        `INSERT INTO companies (id, slug, company_type, name, street_name, house_number, postal_code, phone_number,
           email, description, claim_email)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9)`,
        [
          a.id,
          slug,
          a.companyType,
          a.companyName,
          a.streetName,
          a.houseNumber,
          a.postalCode,
          a.phoneNumber,
          a.email,
          a.serviceDescription,
        ],
      );
    },
    async companies(limit: number): Promise<TeamCompany[]> {
      const { rows } = await db.query<{
        id: string;
        slug: string;
        name: string;
        company_type: TeamCompany['companyType'];
        email: string;
        state: TeamCompany['state'];
        users: string | number;
        created_at: Date | string;
      }>(
        `SELECT c.id, c.slug, c.name, c.company_type, c.email, c.state, c.created_at,
                (SELECT count(*) FROM company_users u WHERE u.company_id = c.id) AS users
           FROM companies c ORDER BY c.name, c.id LIMIT $1`,
        [limit],
      );
      return rows.map((r) => ({
        id: r.id,
        slug: r.slug,
        name: r.name,
        companyType: r.company_type,
        email: r.email,
        state: r.state,
        users: Number(r.users),
        createdAt: new Date(r.created_at).toISOString(),
      }));
    },
    /** Sets the state when it differs; answers the state before, undefined when there is no such company. */
    async setState(id: string, state: TeamCompany['state']) {
      const { rows } = await db.query<{ state: TeamCompany['state'] }>(
        'SELECT state FROM companies WHERE id = $1 FOR UPDATE',
        [id],
      );
      const before = rows[0]?.state;
      if (before && before !== state)
        await db.query('UPDATE companies SET state = $2, updated_at = now() WHERE id = $1', [id, state]);
      return before;
    },
    /**
     * The companies whose invitation waits for this address, claimed by the user: they become the
     * company's first partner user and its administrator. Only for a verified address (the caller checks).
     */
    async claim(email: string, userId: string): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `UPDATE companies SET claim_email = NULL, updated_at = now()
          WHERE lower(claim_email) = lower($1) AND claim_email IS NOT NULL RETURNING id`,
        [email],
      );
      for (const { id } of rows)
        await db.query(
          `INSERT INTO company_users (company_id, user_id, is_admin) VALUES ($1, $2, true)
           ON CONFLICT (company_id, user_id) DO UPDATE SET is_admin = true`,
          [id, userId],
        );
      return rows.map((r) => r.id);
    },
    async rolesOf(userId: string): Promise<AccountRoles['companies']> {
      const { rows } = await db.query<{
        id: string;
        slug: string;
        name: string;
        state: TeamCompany['state'];
        is_admin: boolean;
      }>(
        `SELECT c.id, c.slug, c.name, c.state, u.is_admin FROM company_users u JOIN companies c ON c.id = u.company_id
          WHERE u.user_id = $1 ORDER BY c.name, c.id`,
        [userId],
      );
      return rows.map((r) => ({ id: r.id, slug: r.slug, name: r.name, state: r.state, isAdmin: r.is_admin }));
    },
    /** Whether the user is a partner user of this company while it is active. */
    async isActiveUser(companyId: string, userId: string) {
      const { rows } = await db.query(
        `SELECT 1 FROM company_users u JOIN companies c ON c.id = u.company_id
          WHERE u.company_id = $1 AND u.user_id = $2 AND c.state = 'active'`,
        [companyId, userId],
      );
      return rows.length > 0;
    },
    async teamMembers() {
      const { rows } = await db.query<{ email: string; created_at: Date | string }>(
        'SELECT email, created_at FROM team_members ORDER BY email',
      );
      return rows.map((r) => ({ email: r.email, createdAt: new Date(r.created_at).toISOString() }));
    },
    /** Answers false when the address was granted already. */
    async grant(email: string, by: string) {
      const { rowCount } = await db.query(
        'INSERT INTO team_members (email, granted_by) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING',
        [email, by],
      );
      return rowCount === 1;
    },
    async revoke(email: string) {
      const { rowCount } = await db.query('DELETE FROM team_members WHERE email = $1', [email]);
      return rowCount === 1;
    },
    async teamAudit(
      actor: Extract<Caller, { kind: 'user' }>,
      action: 'team.granted' | 'team.revoked',
      email: string,
    ) {
      await db.query(
        `INSERT INTO team_audit_log (actor_user_id, actor_name, action, email)
         VALUES ($1, COALESCE($2, (SELECT name FROM users WHERE id = $1)), $3, $4)`,
        [actor.userId, actor.name, action, email],
      );
    },
    async audit(e: {
      companyId: string;
      actor: Caller | null;
      action: string;
      details?: Record<string, unknown>;
    }) {
      const actor = e.actor;
      const kind = actor?.kind === 'user' ? 'user' : actor?.kind === 'anonymous' ? 'anonymous' : 'system';
      const userId = actor?.kind === 'user' ? actor.userId : null;
      const name = actor?.kind === 'user' ? actor.name : null;
      await db.query(
        `INSERT INTO company_audit_log (company_id, actor_kind, actor_user_id, actor_name, action, details)
         VALUES ($1, $2, $3, COALESCE($4, (SELECT name FROM users WHERE id = $3)), $5, $6)`,
        [e.companyId, kind, userId, name, e.action, JSON.stringify(e.details ?? {})],
      );
    },
    /**
     * The pages the company cared for that its public page may list: handed over to the
     * family, who agreed to be shown, and public and published. Newest death first.
     */
    async listCaredPagesShown(companyId: string): Promise<CaredPageShown[]> {
      const { rows } = await db.query<{
        id: string;
        slug: string;
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
      }>(
        `SELECT m.id, m.slug, m.first_name, m.last_name,
                to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, to_char(m.death_date, 'YYYY-MM-DD') AS death_date
           FROM memorial_care mc JOIN memorials m ON m.id = mc.memorial_id
          WHERE mc.company_id = $1 AND mc.state = 'handed_over' AND mc.shown_publicly
            AND m.status = 'active' AND m.visibility = 'public'
          ORDER BY m.death_date DESC NULLS LAST, m.id LIMIT 200`,
        [companyId],
      );
      return rows.map((r) => ({
        memorialId: r.id,
        slug: r.slug,
        path: `/gedenkpagina/${r.slug}`,
        title: `${r.first_name} ${r.last_name}`,
        birthDate: r.birth_date,
        deathDate: r.death_date,
      }));
    },
  };
}

/** A page on the company's public page, with its readable address (migration 131). */
export interface CaredPageShown {
  memorialId: string;
  slug: string;
  path: string;
  title: string;
  birthDate: string | null;
  deathDate: string | null;
}

/** What account deletion changes of the companies (companies, their users, invitations, care and log). */
export const companyForgetting = {
  /** The user leaves every company; returns each company left, with its own address. */
  async leaveAll(q: Queryable, userId: string) {
    const { rows } = await q.query<{ company_id: string; email: string }>(
      `DELETE FROM company_users cu USING companies c
        WHERE cu.user_id = $1 AND c.id = cu.company_id
        RETURNING cu.company_id, c.email`,
      [userId],
    );
    return rows;
  },

  async systemAudit(q: Queryable, companyId: string, action: string, details: Record<string, unknown>) {
    await q.query(
      `INSERT INTO company_audit_log (company_id, actor_kind, action, details) VALUES ($1, 'system', $2, $3)`,
      [companyId, action, JSON.stringify(details)],
    );
  },

  async hasAdmin(q: Queryable, companyId: string): Promise<boolean> {
    const { rows } = await q.query('SELECT 1 FROM company_users WHERE company_id = $1 AND is_admin LIMIT 1', [
      companyId,
    ]);
    return rows.length > 0;
  },

  /** The colleague who joined first becomes an administrator; undefined when no user is left. */
  async promoteFirstUser(q: Queryable, companyId: string) {
    const { rows } = await q.query<{ user_id: string }>(
      `UPDATE company_users SET is_admin = true
        WHERE (company_id, user_id) = (SELECT company_id, user_id FROM company_users WHERE company_id = $1
                                        ORDER BY created_at, user_id LIMIT 1)
        RETURNING user_id`,
      [companyId],
    );
    return rows[0];
  },

  /** The company can be claimed again by its own address (as after the team's approval). */
  async reopenClaim(q: Queryable, companyId: string) {
    await q.query('UPDATE companies SET claim_email = email, updated_at = now() WHERE id = $1', [companyId]);
  },

  /** A company's invitation to the address, and the address a company once mailed a page to. */
  async forgetAddress(q: Queryable, email: string) {
    await q.query('DELETE FROM company_invitations WHERE email = $1', [email]);
    await q.query(`UPDATE memorial_care SET family_email = '' WHERE lower(family_email) = $1`, [email]);
  },
};
