import type { Queryable } from '../db/client.ts';
import { isUuid } from '../lib/ids.ts';

export interface Account {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
  /** When the address was verified; null when unverified or verified before this was recorded. */
  emailVerifiedAt: Date | null;
  googleSub: string | null;
}

interface AccountRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  email_verified: boolean;
  email_verified_at: Date | string | null;
  google_sub: string | null;
  [key: string]: unknown;
}

const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  emailVerified: r.email_verified,
  emailVerifiedAt: r.email_verified_at ? new Date(r.email_verified_at) : null,
  googleSub: r.google_sub,
});

export interface LoginFailures {
  failures: number;
  lastFailureAt: Date;
  lockedUntil: Date | null;
}

export type ActionPurpose = 'reset-password' | 'verify-email';

export interface FederationState {
  state: string;
  provider: 'google';
  interactionUid: string;
  codeVerifier: string;
  nonce: string;
  accountId: string | null;
  error: string | null;
  expired: boolean;
  consumed: boolean;
}

/** SQL for accounts and the identity provider's bookkeeping (lockout, mailed links, federation). */
type FailuresRow = {
  failures: number;
  last_failure_at: Date | string;
  locked_until: Date | string | null;
};

const failuresOf = (r: FailuresRow | undefined): LoginFailures | undefined =>
  r && {
    failures: r.failures,
    lastFailureAt: new Date(r.last_failure_at),
    lockedUntil: r.locked_until ? new Date(r.locked_until) : null,
  };

export function identityRepository(db: Queryable) {
  return {
    async findById(id: string): Promise<Account | undefined> {
      if (!isUuid(id)) return undefined;
      const { rows } = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
      return rows[0] ? toAccount(rows[0]) : undefined;
    },

    async findByEmail(email: string): Promise<Account | undefined> {
      const { rows } = await db.query<AccountRow>('SELECT * FROM accounts WHERE lower(email) = lower($1)', [
        email,
      ]);
      return rows[0] ? toAccount(rows[0]) : undefined;
    },

    async findByGoogleSub(sub: string): Promise<Account | undefined> {
      const { rows } = await db.query<AccountRow>('SELECT * FROM accounts WHERE google_sub = $1', [sub]);
      return rows[0] ? toAccount(rows[0]) : undefined;
    },

    /** Returns undefined when the e-mail address is taken (unique, case-insensitive). */
    async insert(a: {
      email: string;
      name: string;
      passwordHash: string | null;
      emailVerified: boolean;
      googleSub?: string;
    }): Promise<Account | undefined> {
      const { rows } = await db.query<AccountRow>(
        `INSERT INTO accounts (email, name, password_hash, email_verified, google_sub)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ((lower(email))) DO NOTHING RETURNING *`,
        [a.email, a.name, a.passwordHash, a.emailVerified, a.googleSub ?? null],
      );
      return rows[0] ? toAccount(rows[0]) : undefined;
    },

    /** A new password proves the mailbox too: the address is (re)verified now, by its current holder. */
    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.query(
        `UPDATE accounts SET password_hash = $2, email_verified = true, email_verified_at = now(),
           updated_at = now() WHERE id = $1`,
        [id, passwordHash],
      );
    },

    /**
     * The mailbox's holder confirmed the address and proved to be whoever holds the account's password (a
     * sign-in of it in the same browser, or the password typed): every sign-in of the account is theirs, so
     * none ends and `email_verified_at` stays as it was. True when the address was not verified before.
     */
    async confirmEmail(id: string): Promise<boolean> {
      const { rowCount } = await db.query(
        'UPDATE accounts SET email_verified = true, updated_at = now() WHERE id = $1 AND NOT email_verified',
        [id],
      );
      return rowCount === 1;
    },

    /**
     * The address an open (not accepted, revoked or expired) invitation or handover link was mailed to.
     * `codeHash` as `inviteCodeHash` (modules/invites) makes it.
     */
    async openInviteAddress(codeHash: string): Promise<string | undefined> {
      const { rows } = await db.query<{ email: string }>(
        `SELECT email FROM guest_invites WHERE code_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL
           AND expires_at > now()`,
        [codeHash],
      );
      return rows[0]?.email;
    },

    /**
     * Ends every sign-in of the account: its sessions, grants, codes, access and refresh tokens (the
     * provider's rows in oidc_models, found by their accountId and by the grants they share), so a refresh
     * token issued before is refused with invalid_grant.
     */
    async endAllSessions(accountId: string): Promise<number> {
      const { rowCount } = await db.query(
        `WITH grants AS (SELECT id FROM oidc_models WHERE model = 'Grant' AND payload->>'accountId' = $1)
         DELETE FROM oidc_models
         WHERE payload->>'accountId' = $1 OR grant_id IN (SELECT id FROM grants)`,
        [accountId],
      );
      return rowCount;
    },

    /**
     * Links a Google identity to an account found by its e-mail. A password set on an unverified address
     * is dropped: whoever chose it never proved they own the mailbox Google just vouched for.
     */
    async linkGoogle(id: string, googleSub: string): Promise<Account> {
      const { rows } = await db.query<AccountRow>(
        `UPDATE accounts SET google_sub = $2,
           password_hash = CASE WHEN email_verified THEN password_hash END,
           email_verified = true, updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, googleSub],
      );
      return toAccount(rows[0]!);
    },

    async getFailures(email: string): Promise<LoginFailures | undefined> {
      const { rows } = await db.query<FailuresRow>(
        'SELECT failures, last_failure_at, locked_until FROM login_failures WHERE email = $1',
        [email.toLowerCase()],
      );
      return failuresOf(rows[0]);
    },

    /**
     * Counts an attempt as a failure before its password is checked, in one atomic statement: parallel
     * attempts each get their own number, so at most `factor` of them pass before the address is locked.
     * The count starts over after `reset` seconds without a failure; from the `factor`th failure on, each
     * locks the address for `increment` × (failures ÷ factor) seconds, at most `max`. Undefined (nothing
     * counted) while the address is locked. A success clears the count (`clearFailures`).
     */
    async reserveAttempt(
      email: string,
      now: Date,
      lockout: { factor: number; increment: number; max: number; reset: number },
    ): Promise<LoginFailures | undefined> {
      const next = `CASE WHEN f.last_failure_at < $2::timestamptz - make_interval(secs => $6::int) THEN 1
        ELSE f.failures + 1 END`;
      const lockFor = (n: string) => `CASE WHEN ${n} >= $3::int
        THEN $2::timestamptz + make_interval(secs => LEAST($5::int, $4::int * (${n} / $3::int))) END`;
      const { rows } = await db.query<FailuresRow>(
        `INSERT INTO login_failures AS f (email, failures, last_failure_at, locked_until)
         VALUES ($1, 1, $2::timestamptz, ${lockFor('1')})
         ON CONFLICT (email) DO UPDATE SET failures = ${next}, last_failure_at = $2::timestamptz,
           locked_until = ${lockFor(`(${next})`)}
         WHERE f.locked_until IS NULL OR f.locked_until <= $2::timestamptz
         RETURNING failures, last_failure_at, locked_until`,
        [
          email.toLowerCase(),
          now.toISOString(),
          lockout.factor,
          lockout.increment,
          lockout.max,
          lockout.reset,
        ],
      );
      return failuresOf(rows[0]);
    },

    async clearFailures(email: string): Promise<void> {
      await db.query('DELETE FROM login_failures WHERE email = $1', [email.toLowerCase()]);
    },

    /** The address's login counters, and pending sign-ins at the provider that name it (login_hint). */
    async forgetSignInsOf(email: string): Promise<void> {
      await db.query('DELETE FROM login_failures WHERE email = $1', [email]);
      await db.query(`DELETE FROM oidc_models WHERE strpos(lower(payload::text), $1) > 0`, [email]);
    },

    async insertActionToken(t: {
      tokenHash: string;
      accountId: string;
      purpose: ActionPurpose;
      interactionUid: string | null;
      ttlSeconds: number;
    }): Promise<void> {
      await db.query(
        `INSERT INTO account_action_tokens (token_hash, account_id, purpose, interaction_uid, expires_at)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::int))`,
        [t.tokenHash, t.accountId, t.purpose, t.interactionUid, t.ttlSeconds],
      );
    },

    /** A token that exists, has this purpose, is unused and unexpired; undefined otherwise. */
    async findUsableActionToken(
      tokenHash: string,
      purpose: ActionPurpose,
    ): Promise<{ accountId: string; interactionUid: string | null } | undefined> {
      const { rows } = await db.query<{ account_id: string; interaction_uid: string | null }>(
        `SELECT account_id, interaction_uid FROM account_action_tokens
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
        [tokenHash, purpose],
      );
      return rows[0] ? { accountId: rows[0].account_id, interactionUid: rows[0].interaction_uid } : undefined;
    },

    /** Marks a token used; false when it was already used or has expired (so it works exactly once). */
    async useActionToken(tokenHash: string, purpose: ActionPurpose): Promise<string | undefined> {
      const { rows } = await db.query<{ account_id: string }>(
        `UPDATE account_action_tokens SET used_at = now()
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
         RETURNING account_id`,
        [tokenHash, purpose],
      );
      return rows[0]?.account_id;
    },

    /** Earlier reset links stop working once a new one is used. */
    async invalidateActionTokens(accountId: string, purpose: ActionPurpose): Promise<void> {
      await db.query(
        'UPDATE account_action_tokens SET used_at = now() WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL',
        [accountId, purpose],
      );
    },

    async insertFederationState(s: {
      state: string;
      interactionUid: string;
      codeVerifier: string;
      nonce: string;
      ttlSeconds: number;
    }): Promise<void> {
      await db.query(
        `INSERT INTO federation_states (state, provider, interaction_uid, code_verifier, nonce, expires_at)
         VALUES ($1, 'google', $2, $3, $4, now() + make_interval(secs => $5::int))`,
        [s.state, s.interactionUid, s.codeVerifier, s.nonce, s.ttlSeconds],
      );
    },

    async findFederationState(state: string): Promise<FederationState | undefined> {
      const { rows } = await db.query<{
        state: string;
        provider: 'google';
        interaction_uid: string;
        code_verifier: string;
        nonce: string;
        account_id: string | null;
        error: string | null;
        expired: boolean;
        consumed_at: string | null;
      }>(
        `SELECT state, provider, interaction_uid, code_verifier, nonce, account_id, error,
           expires_at <= now() AS expired, consumed_at FROM federation_states WHERE state = $1`,
        [state],
      );
      const r = rows[0];
      if (!r) return undefined;
      return {
        state: r.state,
        provider: r.provider,
        interactionUid: r.interaction_uid,
        codeVerifier: r.code_verifier,
        nonce: r.nonce,
        accountId: r.account_id,
        error: r.error,
        expired: r.expired,
        consumed: r.consumed_at !== null,
      };
    },

    async completeFederationState(
      state: string,
      result: { accountId: string } | { error: string },
    ): Promise<void> {
      await db.query('UPDATE federation_states SET account_id = $2, error = $3 WHERE state = $1', [
        state,
        'accountId' in result ? result.accountId : null,
        'error' in result ? result.error : null,
      ]);
    },

    /** True only for the first caller: the finished federation is handed to one interaction, once. */
    async consumeFederationState(state: string, interactionUid: string): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE federation_states SET consumed_at = now()
         WHERE state = $1 AND interaction_uid = $2 AND consumed_at IS NULL AND expires_at > now()`,
        [state, interactionUid],
      );
      return rowCount === 1;
    },

    async sweep(): Promise<void> {
      await db.query("DELETE FROM federation_states WHERE expires_at < now() - interval '1 day'");
      await db.query("DELETE FROM account_action_tokens WHERE expires_at < now() - interval '7 days'");
    },
  };
}

export type IdentityRepository = ReturnType<typeof identityRepository>;
