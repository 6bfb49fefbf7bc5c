import type { CompanyRequest } from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { companyRepository } from './repository.ts';
import { applicantMail, teamMail } from './mails.ts';

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

    /** The team reviews applications: users whose (verified) e-mail address is in ADMIN_EMAILS. */
    async get(caller: Caller, id: string) {
      if (caller.kind !== 'user') throw unauthorized();
      if (!(await isTeamMember({ db, config }, caller))) throw forbidden();
      const company = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
        ? await repo.findById(id)
        : undefined;
      if (!company) throw notFound('Deze partneraanvraag bestaat niet.');
      return company;
    },
  };
}

/**
 * A team member has an e-mail address from ADMIN_EMAILS. With the embedded provider the address must also
 * be verified (anyone can register with any address), and the caller's token issued after that moment: a
 * token from a sign-in before the verification may belong to whoever registered the address first. An
 * external realm must verify addresses itself.
 */
async function isTeamMember(
  { db, config }: Pick<Deps, 'db' | 'config'>,
  caller: Extract<Caller, { kind: 'user' }>,
) {
  if (!caller.email || !config.ADMIN_EMAILS.includes(caller.email.toLowerCase())) return false;
  const { rows } = await db.query<{ email_verified: boolean; email_verified_at: Date | string | null }>(
    'SELECT email_verified, email_verified_at FROM accounts WHERE id::text = $1',
    [caller.userId],
  );
  const account = rows[0];
  if (!account) return !config.embeddedIdentity;
  if (!account.email_verified) return false;
  if (account.email_verified_at === null) return true;
  const verifiedAt = Math.floor(new Date(account.email_verified_at).getTime() / 1000);
  // `iat` has whole seconds: a token from the second of the verification itself does not count either.
  return caller.issuedAt !== undefined && caller.issuedAt > verifiedAt;
}
