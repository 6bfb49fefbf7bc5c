import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';
import {
  hasHiddenOrLineBreakingCharacters,
  looksLikeLink,
  PERSON_NAME_LINE_MESSAGE,
  PERSON_NAME_LINK_MESSAGE,
} from '@aandenken/contract';
import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { MailOutbox } from '../lib/mail-outbox.ts';
import type { ForgetPerson } from '../shared/forget-person.ts';
import { identityRepository, type Account } from './repository.ts';
import { resetPasswordMail, verifyEmailMail } from './mails.ts';
import { weakPasswordReason } from './password-policy.ts';
import { inviteCodeIn, safeReturnPath } from './return-path.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const RESET_LINK_TTL_SECONDS = 60 * 60;
export const VERIFY_LINK_TTL_SECONDS = 24 * 60 * 60;

// OWASP's argon2id settings: 19 MiB, 2 iterations, 1 lane.
// (algorithm 2 is Argon2id; the package's enum is const and cannot be imported under verbatimModuleSyntax.)
const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

const emailField = z
  .string()
  .trim()
  .min(1, 'E-mailadres is verplicht')
  .max(254, 'E-mailadres is te lang')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Voer een geldig e-mailadres in');

const passwordField = z
  .string()
  .min(1, 'Wachtwoord is verplicht')
  .min(PASSWORD_MIN_LENGTH, `Je wachtwoord moet minstens ${PASSWORD_MIN_LENGTH} tekens lang zijn`)
  .max(PASSWORD_MAX_LENGTH, `Je wachtwoord mag hoogstens ${PASSWORD_MAX_LENGTH} tekens lang zijn`);

const newPasswordSchema = z
  .object({ password: passwordField, passwordRepeat: z.string() })
  .refine((v) => v.password === v.passwordRepeat, {
    path: ['passwordRepeat'],
    message: 'De wachtwoorden zijn niet gelijk',
  });

export const registrationSchema = z
  .object({
    // Mailed (the verification and reset mails) to an address nobody has proven yet: one line, no link.
    name: z
      .string()
      .trim()
      .min(1, 'Naam is verplicht')
      .max(200, 'Naam mag hoogstens 200 tekens lang zijn')
      .refine((s) => !hasHiddenOrLineBreakingCharacters(s), PERSON_NAME_LINE_MESSAGE)
      .refine((s) => !looksLikeLink(s), PERSON_NAME_LINK_MESSAGE),
    email: emailField,
    password: passwordField,
    passwordRepeat: z.string(),
  })
  .refine((v) => v.password === v.passwordRepeat, {
    path: ['passwordRepeat'],
    message: 'De wachtwoorden zijn niet gelijk',
  });

export type FieldErrors = Record<string, string>;

function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    out[key] ??= issue.message;
  }
  return out;
}

const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} ${minutes === 1 ? 'minuut' : 'minuten'}`;
};

export const loginMessages = {
  invalid: 'Onjuist e-mailadres of wachtwoord.',
  locked: (seconds: number) => `Te veel mislukte pogingen. Probeer het over ${inMinutes(seconds)} opnieuw.`,
  /** The per-address limit on the identity forms (not tied to one e-mail address). */
  tooManyRequests: (seconds: number) =>
    `Te veel pogingen vanaf dit netwerk. Probeer het over ${inMinutes(seconds)} opnieuw.`,
} as const;

export type LoginResult =
  | { ok: true; account: Account }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

/**
 * Accounts of the embedded provider: registration, password sign-in with Keycloak-style brute-force
 * detection, mailed reset and verification links, and accounts from Google.
 */
export function accountService(deps: { db: Db; config: Config; outbox: MailOutbox }) {
  const { db, config, outbox } = deps;
  const repo = identityRepository(db);
  // Verified against when no account exists, so a wrong e-mail costs as long as a wrong password.
  const dummyHash = hash('dummy-password-for-timing', argon2Options);

  const lockout = {
    factor: config.LOGIN_FAILURE_FACTOR,
    increment: config.LOGIN_WAIT_INCREMENT_SECONDS,
    max: config.LOGIN_MAX_WAIT_SECONDS,
    reset: config.LOGIN_FAILURE_RESET_SECONDS,
  };

  /** The link's token and its mail, in the transaction `q` (the one that created the account). */
  async function sendVerification(
    q: Queryable,
    account: Account,
    interactionUid: string | null,
    returnPath: string | undefined,
  ) {
    const token = newToken();
    await identityRepository(q).insertActionToken({
      tokenHash: sha256(token),
      accountId: account.id,
      purpose: 'verify-email',
      interactionUid,
      ttlSeconds: VERIFY_LINK_TTL_SECONDS,
    });
    const query = new URLSearchParams({ token });
    if (returnPath) query.set('terug', returnPath);
    const link = `${config.OIDC_AUTHORITY}/login-actions/verify-email?${query}`;
    // Over the address's daily limit the mail is left out without a word, like a reset mail.
    await outbox.enqueueLimited(q, verifyEmailMail(account.email, account.name, link), 'account');
  }

  /**
   * The person came from an invitation or handover link (the return path opens one) that was mailed to
   * this very address and is still open: that proves the mailbox as a mailed confirmation link would.
   */
  async function provenByInvite(email: string, returnPath: string | undefined) {
    const code = inviteCodeIn(returnPath);
    if (!code) return false;
    // As `inviteCodeHash` (modules/invites/service.ts).
    const mailedTo = await repo.openInviteAddress(sha256(code));
    return !!mailedTo && mailedTo.trim().toLowerCase() === email.trim().toLowerCase();
  }

  /** The address confirmed by the holder of the account's sign-ins: nothing ends (`confirmEmail`). */
  async function confirm(token: string, accountId: string) {
    return db.transaction(async (tx) => {
      const r = identityRepository(tx);
      const id = await r.useActionToken(sha256(token), 'verify-email');
      if (id !== accountId) return false;
      await r.confirmEmail(id);
      await r.invalidateActionTokens(id, 'verify-email');
      return true;
    });
  }

  const service = {
    findById: (id: string) => repo.findById(id),

    hashPassword: (password: string) => hash(password, argon2Options),

    /**
     * A new account, signed in at once. Its address is unproven (a confirmation link is mailed, carrying
     * `returnPath` so the person comes back to what they were doing), unless the person came from an
     * invitation or handover link mailed to this address.
     */
    async register(
      input: Record<string, unknown>,
      interactionUid: string,
      returnPathInput?: unknown,
    ): Promise<{ ok: true; account: Account } | { ok: false; fields: FieldErrors }> {
      const parsed = registrationSchema.safeParse(input);
      if (!parsed.success) return { ok: false, fields: fieldErrors(parsed.error) };
      const { name, email, password } = parsed.data;
      const weak = await weakPasswordReason(password, email);
      if (weak) return { ok: false, fields: { password: weak } };
      const passwordHash = await hash(password, argon2Options);
      const returnPath = safeReturnPath(returnPathInput);
      const proven = await provenByInvite(email, returnPath);
      const account = await db.transaction(async (tx) => {
        const created = await identityRepository(tx).insert({
          email,
          name,
          passwordHash,
          emailVerified: proven,
        });
        if (created && !proven) await sendVerification(tx, created, interactionUid, returnPath);
        return created;
      });
      if (!account) {
        return {
          ok: false,
          fields: {
            email: 'Er bestaat al een account met dit e-mailadres. Log in of vraag een nieuw wachtwoord aan.',
          },
        };
      }
      return { ok: true, account };
    },

    async login(emailInput: string, password: string, now = new Date()): Promise<LoginResult> {
      const email = emailInput.trim().toLowerCase();
      if (!email || !password || password.length > PASSWORD_MAX_LENGTH || email.length > 254) {
        return { ok: false, reason: 'invalid' };
      }
      // The attempt is counted before argon2 runs (one atomic statement), so parallel attempts cannot all
      // read an unlocked address: at most LOGIN_FAILURE_FACTOR passwords are ever checked in a row.
      if (!(await repo.reserveAttempt(email, now, lockout))) {
        const failures = await repo.getFailures(email);
        const wait = failures?.lockedUntil ? failures.lockedUntil.getTime() - now.getTime() : 0;
        return { ok: false, reason: 'locked', retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      }
      const account = await repo.findByEmail(email);
      const valid = account?.passwordHash
        ? await verify(account.passwordHash, password).catch(() => false)
        : (await verify(await dummyHash, password).catch(() => false)) && false;
      if (!account || !valid) return { ok: false, reason: 'invalid' };
      await repo.clearFailures(email);
      return { ok: true, account };
    },

    /** Always answers the same, whether or not an account exists (the mail only goes to real accounts). */
    async requestPasswordReset(
      emailInput: string,
      interactionUid: string | null,
    ): Promise<{ ok: boolean; fields?: FieldErrors }> {
      const parsed = emailField.safeParse(emailInput);
      if (!parsed.success) return { ok: false, fields: { email: parsed.error.issues[0]!.message } };
      const account = await repo.findByEmail(parsed.data);
      if (!account) return { ok: true };
      const token = newToken();
      const link = `${config.OIDC_AUTHORITY}/login-actions/reset-password?token=${token}`;
      await db.transaction(async (tx) => {
        await identityRepository(tx).insertActionToken({
          tokenHash: sha256(token),
          accountId: account.id,
          purpose: 'reset-password',
          interactionUid,
          ttlSeconds: RESET_LINK_TTL_SECONDS,
        });
        // Anyone may ask for this mail to any address: over the address's daily limit it is left out
        // without a word (the answer never tells whether an account exists, nor what it was sent).
        await outbox.enqueueLimited(
          tx,
          resetPasswordMail(account.email, account.name, link, RESET_LINK_TTL_SECONDS / 60),
          'account',
        );
      });
      return { ok: true };
    },

    async resetTokenUsable(token: string): Promise<boolean> {
      return !!(await repo.findUsableActionToken(sha256(token), 'reset-password'));
    },

    async resetPassword(
      token: string,
      input: Record<string, unknown>,
    ): Promise<
      { ok: true; interactionUid: string | null } | { ok: false; fields?: FieldErrors; expired?: true }
    > {
      const usable = await repo.findUsableActionToken(sha256(token), 'reset-password');
      if (!usable) return { ok: false, expired: true };
      const parsed = newPasswordSchema.safeParse(input);
      if (!parsed.success) return { ok: false, fields: fieldErrors(parsed.error) };
      const holder = await repo.findById(usable.accountId);
      const weak = holder && (await weakPasswordReason(parsed.data.password, holder.email));
      if (weak) return { ok: false, fields: { password: weak } };
      const passwordHash = await hash(parsed.data.password, argon2Options);
      // One transaction: the new password, the link used up, and every sign-in of the account ended (one
      // from before the reset may be someone who registered this address first and kept a refresh token).
      const accountId = await db.transaction(async (tx) => {
        const r = identityRepository(tx);
        const id = await r.useActionToken(sha256(token), 'reset-password');
        if (!id) return undefined;
        await r.setPassword(id, passwordHash);
        await r.invalidateActionTokens(id, 'reset-password');
        await r.endAllSessions(id);
        const account = await r.findById(id);
        if (account) await r.clearFailures(account.email);
        return id;
      });
      if (!accountId) return { ok: false, expired: true };
      return { ok: true, interactionUid: usable.interactionUid };
    },

    /**
     * The mailed link proves the mailbox; the account's password may still be a stranger's who registered
     * the address first. So the address is confirmed in one click only by someone who also proves to hold
     * the account: a sign-in of it in this browser (`sessionAccountId`), or its password (`password`). Then
     * every sign-in of the account is theirs and none ends. Anyone else (a mail scanner too) changes
     * nothing; they may choose a new password instead (`newPassword`), which ends every sign-in from before,
     * as a password reset does.
     */
    async verifyEmail(
      token: string,
      proof: {
        sessionAccountId?: string | undefined;
        password?: string | undefined;
        newPassword?: Record<string, unknown>;
      } = {},
    ): Promise<
      | { ok: true; interactionUid: string | null; passwordSet: boolean; already?: true }
      | {
          ok: false;
          expired?: true;
          needsProof?: true;
          fields?: FieldErrors;
          error?: string;
          status?: number;
        }
    > {
      const usable = await repo.findUsableActionToken(sha256(token), 'verify-email');
      const holder = usable && (await repo.findById(usable.accountId));
      if (!usable || !holder) return { ok: false, expired: true };
      const done = (passwordSet: boolean, already?: true) => ({
        ok: true as const,
        interactionUid: usable.interactionUid,
        passwordSet,
        ...(already ? { already } : {}),
      });
      // Proven meanwhile (a password reset, Google): nothing to decide.
      if (holder.emailVerified || !holder.passwordHash) {
        return (await confirm(token, holder.id)) ? done(false, true) : { ok: false, expired: true };
      }
      if (proof.sessionAccountId === holder.id) {
        return (await confirm(token, holder.id)) ? done(false) : { ok: false, expired: true };
      }
      if (proof.password !== undefined) {
        const result = await service.login(holder.email, proof.password);
        if (!result.ok) {
          return result.reason === 'locked'
            ? {
                ok: false,
                needsProof: true,
                error: loginMessages.locked(result.retryAfterSeconds),
                status: 429,
              }
            : {
                ok: false,
                needsProof: true,
                fields: { password: 'Dit wachtwoord klopt niet.' },
                status: 401,
              };
        }
        return (await confirm(token, holder.id)) ? done(false) : { ok: false, expired: true };
      }
      if (!proof.newPassword) return { ok: false, needsProof: true };
      const parsed = newPasswordSchema.safeParse(proof.newPassword);
      if (!parsed.success) return { ok: false, needsProof: true, fields: fieldErrors(parsed.error) };
      const weak = await weakPasswordReason(parsed.data.password, holder.email);
      if (weak) return { ok: false, needsProof: true, fields: { password: weak } };
      const passwordHash = await hash(parsed.data.password, argon2Options);
      const verified = await db.transaction(async (tx) => {
        const r = identityRepository(tx);
        const id = await r.useActionToken(sha256(token), 'verify-email');
        if (!id) return false;
        // The holder's password replaces whatever was chosen before; earlier links and sign-ins end.
        await r.setPassword(id, passwordHash);
        await r.invalidateActionTokens(id, 'verify-email');
        await r.invalidateActionTokens(id, 'reset-password');
        await r.endAllSessions(id);
        await r.clearFailures(holder.email);
        return true;
      });
      return verified ? done(true) : { ok: false, expired: true };
    },

    /** The account a usable confirmation link belongs to (to name its address on the form). */
    async verifyHolder(token: string): Promise<Account | undefined> {
      const usable = await repo.findUsableActionToken(sha256(token), 'verify-email');
      return usable && (await repo.findById(usable.accountId));
    },

    /**
     * An identity vouched for by Google: the account already linked to it, else the account with the same
     * (verified-by-Google) e-mail address, else a new account.
     */
    async federated(claims: {
      sub: string;
      email?: string;
      emailVerified?: boolean;
      name?: string;
    }): Promise<{ ok: true; account: Account } | { ok: false; message: string }> {
      const linked = await repo.findByGoogleSub(claims.sub);
      if (linked) return { ok: true, account: linked };
      if (!claims.email || claims.emailVerified !== true) {
        return {
          ok: false,
          message:
            'Je Google-account heeft geen bevestigd e-mailadres. Log in met je e-mailadres en wachtwoord.',
        };
      }
      const existing = await repo.findByEmail(claims.email);
      if (existing) {
        // Google proves the mailbox; sign-ins from before may be a stranger's who registered it first.
        if (!existing.emailVerified) await repo.endAllSessions(existing.id);
        return { ok: true, account: await repo.linkGoogle(existing.id, claims.sub) };
      }
      const name = claims.name?.trim() || claims.email.split('@')[0]!;
      const created = await repo.insert({
        email: claims.email,
        name,
        passwordHash: null,
        emailVerified: true,
        googleSub: claims.sub,
      });
      if (created) return { ok: true, account: created };
      // Created by a simultaneous sign-in: link that one.
      const raced = await repo.findByEmail(claims.email);
      return raced
        ? { ok: true, account: await repo.linkGoogle(raced.id, claims.sub) }
        : { ok: false, message: 'Inloggen met Google is mislukt. Probeer het opnieuw.' };
    },

    repository: repo,
  };
  return service;
}

export type AccountService = ReturnType<typeof accountService>;

/**
 * A deleted account's address leaves the sign-in's login counters and pending sign-ins. Without an address
 * there is nothing to find (an empty one would match every pending sign-in).
 */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  if (person.email !== '') await identityRepository(tx).forgetSignInsOf(person.email);
};
