import type { Caller } from '../lib/auth.ts';
import type { Deps } from '../lib/deps.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';

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
export async function hasVerifiedAddress(
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

/** The caller, when they are on the team; 401 for anonymous callers and guests, 403 for anyone else. */
export async function requireTeamMember(deps: Pick<Deps, 'db' | 'config'>, caller: Caller) {
  if (caller.kind !== 'user') throw unauthorized();
  if (!(await isTeamMember(deps, caller))) throw forbidden('Alleen het team van Aandenken kan dit doen.');
  return caller;
}
