import { routes, type AccountRoles, type CompanyRequest, type TeamMembers } from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { companyRepository } from './repository.ts';
import { applicantMail, approvalMail, rejectionMail, teamMail } from './mails.ts';

export function companyService({ db, outbox, config }: Pick<Deps, 'db' | 'outbox' | 'config'>) {
  const repo = companyRepository(db);
  return {
    /**
     * Anyone may apply. The application and its mails are stored together; the mails go out after. The
     * confirmation goes to an address nobody has proven, so it counts against that address; over the
     * limit it is left out without a word (the application and the team's mail stay): the answer is the
     * same either way, so it tells nothing about what that address received.
     */
    async request(input: CompanyRequest, log: FastifyBaseLogger) {
      if (config.ADMIN_EMAILS.length === 0)
        log.warn('ADMIN_EMAILS is leeg: het team krijgt geen bericht over nieuwe partneraanvragen');
      return db.transaction(async (tx) => {
        const company = await companyRepository(tx).insert(input);
        await companyRepository(tx).audit({
          companyId: company.id,
          actor: { kind: 'anonymous' },
          action: 'application.submitted',
        });
        if (!(await outbox.enqueueLimited(tx, applicantMail(company), 'invitation')))
          log.info(
            { companyId: company.id },
            'partnerbevestiging niet verstuurd: limiet per ontvanger bereikt',
          );
        if (config.ADMIN_EMAILS.length > 0) await outbox.enqueue(tx, teamMail(company, config.ADMIN_EMAILS));
        return company;
      });
    },
    findById: (id: string) => repo.findById(id),

    /** The team and the company's own users (while it is active); everyone else 404, anonymous 401. */
    async get(caller: Caller, id: string) {
      if (caller.kind !== 'user') throw unauthorized();
      const missing = () => notFound('Dit bedrijf of deze partneraanvraag bestaat niet.');
      if (!isUuid(id)) throw missing();
      const allowed =
        (await isTeamMember({ db, config }, caller)) || (await repo.isActiveUser(id, caller.userId));
      const company = allowed ? await repo.findById(id) : undefined;
      if (!company) throw missing();
      return company;
    },

    async pendingApplications(caller: Caller) {
      await requireTeam(caller);
      return { items: await repo.pending(200) };
    },

    /**
     * Approves a pending application: the company is made (active, with a unique slug) and the applicant
     * is mailed an invitation to sign in or register with the same address. The decision mail goes out
     * without the per-recipient limit: only the team sends it, once per application.
     */
    async approve(caller: Caller, id: string) {
      const user = await requireTeam(caller);
      return db.transaction(async (tx) => {
        const r = companyRepository(tx);
        const application = await pendingOrThrow(r, id);
        const slug = await uniqueSlug(r, application.companyName);
        await r.decide(id, 'approved', user.userId, null);
        await r.createCompany(application, slug);
        await r.audit({ companyId: id, actor: caller, action: 'application.approved' });
        await r.audit({ companyId: id, actor: caller, action: 'company.created', details: { slug } });
        const partnerUrl = `${config.APP_URL}${routes.partnerPortal}?login_hint=${encodeURIComponent(application.email)}`;
        await outbox.enqueue(tx, approvalMail(application, partnerUrl));
        return (await r.findById(id))!;
      });
    },

    async reject(caller: Caller, id: string, reason: string) {
      const user = await requireTeam(caller);
      return db.transaction(async (tx) => {
        const r = companyRepository(tx);
        const application = await pendingOrThrow(r, id);
        await r.decide(id, 'rejected', user.userId, reason);
        await r.audit({ companyId: id, actor: caller, action: 'application.rejected' });
        await outbox.enqueue(tx, rejectionMail(application, reason));
        return (await r.findById(id))!;
      });
    },

    async companies(caller: Caller) {
      await requireTeam(caller);
      return { items: await repo.companies(500) };
    },

    /** Suspends or restores a company; its users have partner rights only while it is active. */
    async setState(caller: Caller, id: string, state: 'active' | 'suspended') {
      await requireTeam(caller);
      if (!isUuid(id)) throw notFound('Dit bedrijf bestaat niet.');
      await db.transaction(async (tx) => {
        const r = companyRepository(tx);
        const before = await r.setState(id, state);
        if (!before) throw notFound('Dit bedrijf bestaat niet.');
        if (before !== state)
          await r.audit({
            companyId: id,
            actor: caller,
            action: state === 'suspended' ? 'company.suspended' : 'company.restored',
          });
      });
      const item = (await repo.companies(500)).find((c) => c.id === id);
      return item!;
    },

    /**
     * The caller's roles beyond memorials. A verified address (token issued after the verification)
     * first claims the companies approved for it: the account becomes their first partner user and
     * administrator. An unverified address claims nothing: anyone can register any address.
     */
    async roles(caller: Caller): Promise<AccountRoles> {
      if (caller.kind !== 'user') throw unauthorized();
      if (caller.email && (await hasVerifiedAddress({ db, config }, caller)))
        await db.transaction(async (tx) => {
          const r = companyRepository(tx);
          for (const companyId of await r.claim(caller.email!, caller.userId))
            await r.audit({
              companyId,
              actor: caller,
              action: 'company.user_added',
              details: { admin: true },
            });
        });
      return {
        team: await isTeamMember({ db, config }, caller),
        companies: await repo.rolesOf(caller.userId),
      };
    },

    /** The team: ADMIN_EMAILS (changed only in the configuration) and the addresses it granted. */
    async teamMembers(caller: Caller): Promise<TeamMembers> {
      await requireTeam(caller);
      const granted = await repo.teamMembers();
      return {
        items: [
          ...config.ADMIN_EMAILS.map((email) => ({ email, source: 'config' as const, createdAt: null })),
          ...granted
            .filter((g) => !config.ADMIN_EMAILS.includes(g.email))
            .map((g) => ({ ...g, source: 'granted' as const })),
        ],
      };
    },

    /**
     * Grants the team role to an address. Its holder has the rights once the address is verified (as for
     * ADMIN_EMAILS); no mail goes to it: the address has not proven itself, and the team tells them itself.
     */
    async grantTeam(caller: Caller, rawEmail: string) {
      const user = await requireTeam(caller);
      const email = rawEmail.trim().toLowerCase();
      if (config.ADMIN_EMAILS.includes(email)) throw conflict('Dit adres hoort al bij het team.');
      await db.transaction(async (tx) => {
        const r = companyRepository(tx);
        if (!(await r.grant(email, user.userId))) throw conflict('Dit adres hoort al bij het team.');
        await r.teamAudit(user, 'team.granted', email);
      });
      return this.teamMembers(caller);
    },

    async revokeTeam(caller: Caller, rawEmail: string) {
      const user = await requireTeam(caller);
      const email = rawEmail.trim().toLowerCase();
      if (config.ADMIN_EMAILS.includes(email))
        throw conflict('Dit adres staat in ADMIN_EMAILS en kan alleen in de configuratie worden verwijderd.');
      await db.transaction(async (tx) => {
        const r = companyRepository(tx);
        if (!(await r.revoke(email))) throw notFound('Dit adres hoort niet bij het team.');
        await r.teamAudit(user, 'team.revoked', email);
      });
    },
  };

  async function requireTeam(caller: Caller) {
    if (caller.kind !== 'user') throw unauthorized();
    if (!(await isTeamMember({ db, config }, caller)))
      throw forbidden('Alleen het team van Aandenken kan dit doen.');
    return caller;
  }
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

async function pendingOrThrow(r: ReturnType<typeof companyRepository>, id: string) {
  if (!isUuid(id)) throw notFound('Deze partneraanvraag bestaat niet.');
  const { found, application } = await r.lockPending(id);
  if (!found) throw notFound('Deze partneraanvraag bestaat niet.');
  if (!application) throw conflict('Over deze aanvraag is al besloten.');
  return application;
}

/** 'Uitvaartzorg De Linde' → 'uitvaartzorg-de-linde', with -2, -3 … when taken. */
export function slugBase(name: string) {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' en ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return base || 'bedrijf';
}

async function uniqueSlug(r: ReturnType<typeof companyRepository>, name: string) {
  const base = slugBase(name);
  const taken = await r.slugsLike(base);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * A team member has an e-mail address from ADMIN_EMAILS. With the embedded provider the address must also
 * be verified (anyone can register with any address), and the caller's token issued after that moment: a
 * token from a sign-in before the verification may belong to whoever registered the address first. An
 * external realm must verify addresses itself.
 */
export async function isTeamMember(
  { db, config }: Pick<Deps, 'db' | 'config'>,
  caller: Extract<Caller, { kind: 'user' }>,
) {
  if (!caller.email) return false;
  const email = caller.email.toLowerCase();
  if (!config.ADMIN_EMAILS.includes(email)) {
    const { rows } = await db.query('SELECT 1 FROM team_members WHERE email = $1', [email]);
    if (rows.length === 0) return false;
  }
  return hasVerifiedAddress({ db, config }, caller);
}

/**
 * The caller's e-mail address is proven by its current holder: with the embedded provider, verified and
 * the token issued after the verification. An external realm must verify addresses itself.
 */
async function hasVerifiedAddress(
  { db, config }: Pick<Deps, 'db' | 'config'>,
  caller: Extract<Caller, { kind: 'user' }>,
) {
  const { rows } = await db.query<{ email_verified: boolean; email_verified_at: Date | string | null }>(
    'SELECT email_verified, email_verified_at FROM accounts WHERE id::text = $1 AND lower(email) = lower($2)',
    [caller.userId, caller.email],
  );
  const account = rows[0];
  if (!account) return !config.embeddedIdentity;
  if (!account.email_verified) return false;
  if (account.email_verified_at === null) return true;
  const verifiedAt = Math.floor(new Date(account.email_verified_at).getTime() / 1000);
  // `iat` has whole seconds: a token from the second of the verification itself does not count either.
  return caller.issuedAt !== undefined && caller.issuedAt > verifiedAt;
}
