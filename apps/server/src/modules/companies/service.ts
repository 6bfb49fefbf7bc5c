import { routes, type AccountRoles, type CompanyRequest, type TeamMembers } from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { hasVerifiedAddress, isTeamMember } from '../../shared/team.ts';
import { isUuid } from '../../lib/ids.ts';
import { companyForgetting, companyRepository } from './repository.ts';
import { partnerRepository } from './partner-repository.ts';
import { applicantMail, approvalMail, rejectionMail, teamMail } from './mails.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

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
          // A colleague's invitation (partner-service.ts) is claimed the same way, as a user, not administrator.
          for (const j of await partnerRepository(tx).claimInvitations(caller.email!, caller.userId))
            await r.audit({
              companyId: j.companyId,
              actor: caller,
              action: 'company.user_added',
              details: { admin: false, invitationId: j.invitationId },
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
 * A deleted account leaves the companies it was a partner user of. When it was the last administrator, the
 * colleague who joined first becomes one; a company left without users can be claimed again by its own
 * e-mail address (as after the team's approval). Each step in the company's audit log. Invitations to the
 * address, and the address a company once mailed a page to, go.
 */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  const f = companyForgetting;
  for (const { company_id: companyId, email } of await f.leaveAll(tx, person.userId)) {
    await f.systemAudit(tx, companyId, 'company.user_left', { reason: 'account_deleted' });
    if (await f.hasAdmin(tx, companyId)) continue;
    const next = await f.promoteFirstUser(tx, companyId);
    if (next)
      await f.systemAudit(tx, companyId, 'company.admin_granted', {
        userId: next.user_id,
        reason: 'last_admin_left',
      });
    else {
      await f.reopenClaim(tx, companyId);
      await f.systemAudit(tx, companyId, 'company.claim_reopened', { email });
    }
  }
  if (person.email !== '') await f.forgetAddress(tx, person.email);
};
