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
import { identityRepository, type Account } from './repository.ts';
import { resetPasswordMail, verifyEmailMail } from './mails.ts';
import { weakPasswordReason } from './password-policy.ts';

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
  async function sendVerification(q: Queryable, account: Account, interactionUid: string | null) {
    const token = newToken();
    await identityRepository(q).insertActionToken({
      tokenHash: sha256(token),
      accountId: account.id,
      purpose: 'verify-email',
      interactionUid,
      ttlSeconds: VERIFY_LINK_TTL_SECONDS,
    });
    const link = `${config.OIDC_AUTHORITY}/login-actions/verify-email?token=${token}`;
    // Over the address's daily limit the mail is left out without a word, like a reset mail.
    await outbox.enqueueLimited(q, verifyEmailMail(account.email, account.name, link), 'account');
  }

  return {
    findById: (id: string) => repo.findById(id),

    hashPassword: (password: string) => hash(password, argon2Options),

    async register(
      input: Record<string, unknown>,
      interactionUid: string,
    ): Promise<{ ok: true; account: Account } | { ok: false; fields: FieldErrors }> {
      const parsed = registrationSchema.safeParse(input);
      if (!parsed.success) return { ok: false, fields: fieldErrors(parsed.error) };
      const { name, email, password } = parsed.data;
      const weak = await weakPasswordReason(password, email);
      if (weak) return { ok: false, fields: { password: weak } };
      const passwordHash = await hash(password, argon2Options);
      const account = await db.transaction(async (tx) => {
        const created = await identityRepository(tx).insert({
          email,
          name,
          passwordHash,
          emailVerified: false,
        });
        if (created) await sendVerification(tx, created, interactionUid);
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
     * The mailed link proves the mailbox. Sign-ins from before it are not proven to be its holder's (anyone
     * can register any address and is signed in at once), so they end: none of them ever carries a verified
     * address or team rights. A password chosen before the address was verified may be a stranger's who
     * registered it first, so the first verification of such an account asks for a password (the same one,
     * for a holder who registered the account; their own, for a holder who did not): the old one stops
     * working with every sign-in from before. Without `input` nothing is used up while a password is needed
     * (`needsPassword`), so opening the link (or a mail scanner fetching it) changes nothing yet.
     */
    async verifyEmail(
      token: string,
      input?: Record<string, unknown>,
    ): Promise<
      | { ok: true; interactionUid: string | null; passwordSet: boolean }
      | { ok: false; expired?: true; needsPassword?: true; fields?: FieldErrors }
    > {
      const usable = await repo.findUsableActionToken(sha256(token), 'verify-email');
      const holder = usable && (await repo.findById(usable.accountId));
      if (!usable || !holder) return { ok: false, expired: true };
      let passwordHash: string | undefined;
      if (!holder.emailVerified && holder.passwordHash) {
        if (!input) return { ok: false, needsPassword: true };
        const parsed = newPasswordSchema.safeParse(input);
        if (!parsed.success) return { ok: false, needsPassword: true, fields: fieldErrors(parsed.error) };
        const weak = await weakPasswordReason(parsed.data.password, holder.email);
        if (weak) return { ok: false, needsPassword: true, fields: { password: weak } };
        passwordHash = await hash(parsed.data.password, argon2Options);
      }
      const verified = await db.transaction(async (tx) => {
        const r = identityRepository(tx);
        const id = await r.useActionToken(sha256(token), 'verify-email');
        if (!id) return false;
        if (passwordHash) {
          // The holder's password replaces whatever was chosen before; earlier links and sign-ins end.
          await r.setPassword(id, passwordHash);
          await r.invalidateActionTokens(id, 'verify-email');
          await r.invalidateActionTokens(id, 'reset-password');
          await r.endAllSessions(id);
          await r.clearFailures(holder.email);
        } else if (await r.markEmailVerified(id)) {
          await r.endAllSessions(id);
        }
        return true;
      });
      return verified
        ? { ok: true, interactionUid: usable.interactionUid, passwordSet: !!passwordHash }
        : { ok: false, expired: true };
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
      if (existing) return { ok: true, account: await repo.linkGoogle(existing.id, claims.sub) };
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
}

export type AccountService = ReturnType<typeof accountService>;
