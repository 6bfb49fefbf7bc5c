import {
  ACCOUNT_DELETE_WORD,
  FORMER_MEMBER_NAME,
  ORPHANED_MEMORIAL_DAYS,
  type AccountDelete,
  type AccountDeleteResult,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { succession } from '../../shared/succession.ts';

/** Removes a memorial kept read-only after its only member deleted their account (payload: memorialId). */
export const ORPHANED_MEMORIAL_JOB = 'memorial.remove-orphaned';
/** Removes the outbox rows kept for the per-address mail limit (payload: mailIds). */
export const ACCOUNT_MAIL_FORGET_JOB = 'account.forget-mail';

const DAY_MS = 24 * 3_600_000;
/** The per-recipient limit counts a day of mails (lib/mail-outbox.ts). */
const MAIL_LIMIT_WINDOW_MS = DAY_MS;

/** Role order for a successor: the first member in this order becomes owner (longest member first). */
const SUCCESSION = `CASE role WHEN 'owner' THEN 0 WHEN 'editor' THEN 1 WHEN 'contributor' THEN 2 ELSE 3 END`;

/**
 * Deleting an account (docs/privacy.md). One transaction:
 * - every sign-in ends (the provider's sessions, grants and refresh tokens); the API refuses the user's
 *   access tokens from then on (users.deleted_at, lib/auth.ts);
 * - the account row is deleted (password, Google link, mailed links with it): the address can register again;
 * - the user row stays without e-mail and name, so memories, photos and candles keep their place on the
 *   memorials and show "een voormalig lid"; concept memories (seen by nobody else) are deleted;
 * - memberships end; a memorial they alone owned passes to the next member (editor first), or, with no
 *   member left, is archived and removed with its media after 30 days (ORPHANED_MEMORIAL_JOB);
 * - the address disappears from invitations, audit details, login counters and the provider's pending
 *   sign-ins; the mail outbox keeps only the rows that count against the per-address daily limit (so
 *   deleting and registering again cannot mail an address more often), and forgets those a day later.
 */
/** Ends every sign-in of an account inside a transaction (the identity provider's, given by the composition). */
export type EndAllSessions = (tx: Queryable, accountId: string) => Promise<unknown>;

export function accountService(
  deps: Pick<Deps, 'db' | 'queue' | 'config' | 'clock' | 'outbox'>,
  endAllSessions: EndAllSessions,
) {
  const { db, queue } = deps;
  const successors = succession(deps);

  return {
    async delete(caller: Caller, input: AccountDelete): Promise<AccountDeleteResult> {
      if (caller.kind !== 'user') throw unauthorized();
      if (!deps.config.embeddedIdentity) {
        throw new AppError(
          409,
          'ACCOUNT_DELETION_ELSEWHERE',
          'Je account wordt beheerd door een andere inlogdienst. Neem contact met ons op om het te laten verwijderen.',
        );
      }
      const { rows: users } = await db.query<{ email: string | null }>(
        `SELECT coalesce(a.email, u.email) AS email
           FROM users u LEFT JOIN accounts a ON a.id::text = u.id WHERE u.id = $1 AND u.deleted_at IS NULL`,
        [caller.userId],
      );
      const user = users[0];
      if (!user) throw unauthorized();
      const email = (user.email ?? caller.email ?? '').toLowerCase();
      const typed = input.confirmation.trim();
      if (typed !== ACCOUNT_DELETE_WORD && (email === '' || typed.toLowerCase() !== email)) {
        throw badRequest(`Typ je e-mailadres of ${ACCOUNT_DELETE_WORD} om te bevestigen.`, {
          confirmation: `Typ je e-mailadres of ${ACCOUNT_DELETE_WORD}`,
        });
      }

      const removeAfter = new Date(deps.clock.now().getTime() + ORPHANED_MEMORIAL_DAYS * DAY_MS);
      const result = await db.transaction(async (tx) => {
        const userId = caller.userId;
        const passed = await passOnMemorials(tx, caller, removeAfter, (memorialId) =>
          successors.handOverToSuccessor(tx, memorialId, 'account_deleted', userId),
        );
        for (const memorialId of passed.orphaned) {
          await queue.enqueue(
            tx,
            ORPHANED_MEMORIAL_JOB,
            { memorialId },
            { delayMs: removeAfter.getTime() - deps.clock.now().getTime(), maxAttempts: 10 },
          );
        }

        // Sign-in ends everywhere; the account (and its mailed links, Google link) goes.
        if (/^[0-9a-f-]{36}$/i.test(userId)) {
          await endAllSessions(tx, userId);
          await tx.query('DELETE FROM accounts WHERE id = $1::uuid', [userId]);
        }
        await tx.query(
          `UPDATE users SET email = NULL, name = NULL, deleted_at = now(), updated_at = now() WHERE id = $1`,
          [userId],
        );
        await tx.query('DELETE FROM memorial_members WHERE user_id = $1', [userId]);
        // Named as someone's successor: no longer (by account or by address).
        await tx.query('DELETE FROM memorial_successors WHERE user_id = $1 OR lower(email) = $2', [
          userId,
          email,
        ]);
        await tx.query('DELETE FROM memorial_idempotency_keys WHERE user_id = $1', [userId]);
        await leaveCompanies(tx, userId);

        // What they left on memorials stays, from "een voormalig lid".
        await tx.query(`DELETE FROM memories WHERE author_user_id = $1 AND status = 'concept'`, [userId]);
        await tx.query(`UPDATE memories SET author_name = $2 WHERE author_user_id = $1`, [
          userId,
          FORMER_MEMBER_NAME,
        ]);
        await tx.query('UPDATE memory_loves SET name = NULL WHERE user_id = $1', [userId]);
        await tx.query('UPDATE candles SET name = $2 WHERE lit_by_user_id = $1', [
          userId,
          FORMER_MEMBER_NAME,
        ]);
        // The audit log keeps that it happened, not who by name or address.
        await tx.query('UPDATE memorial_audit_log SET actor_name = $2 WHERE actor_user_id = $1', [
          userId,
          FORMER_MEMBER_NAME,
        ]);
        await tx.query(
          `UPDATE memorial_audit_log SET details = details - 'name' - 'email'
            WHERE details->>'userId' = $1 OR lower(details->>'email') = $2`,
          [userId, email],
        );

        if (email !== '') {
          await tx.query('DELETE FROM guest_invites WHERE lower(email) = $1', [email]);
          // A company's invitation to the address, and the address a company once mailed a page to (issue 14).
          await tx.query('DELETE FROM company_invitations WHERE email = $1', [email]);
          // A payment keeps the buyer's name and address for the books (docs/privacy.md), not the address
          // its invoice was mailed to.
          await tx.query(
            'UPDATE payments SET buyer_email = NULL WHERE created_by = $1 OR lower(buyer_email) = $2',
            [userId, email],
          );
          await tx.query(`UPDATE memorial_care SET family_email = '' WHERE lower(family_email) = $1`, [
            email,
          ]);
          await tx.query('DELETE FROM login_failures WHERE email = $1', [email]);
          // Pending sign-ins at the provider that name the address (login_hint).
          await tx.query(`DELETE FROM oidc_models WHERE strpos(lower(payload::text), $1) > 0`, [email]);
          await forgetMail(tx, email);
        }
        return passed;
      });
      queue.notify();
      return {
        deleted: true,
        memorialsPassedOn: result.passedOn,
        memorialsToBeRemoved: result.orphaned.length,
      };
    },
  };

  /**
   * Mail to or from the address: deleted, but for the rows that still count against the per-address daily
   * limit (their body is gone once sent); a job deletes those when the day has passed.
   */
  async function forgetMail(tx: Queryable, email: string) {
    const limitKeys = [`account:${email}`, `invitation:${email}`];
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id::text AS id FROM mail_outbox
        WHERE recipient_limit_key = ANY($1::text[]) AND created_at > now() - interval '24 hours'`,
      [limitKeys],
    );
    const kept = rows.map((r) => r.id);
    await tx.query(
      `DELETE FROM mail_outbox
        WHERE (EXISTS (SELECT 1 FROM unnest(to_addresses) a WHERE lower(a) = $1) OR lower(reply_to) = $1)
          AND NOT (id::text = ANY($2::text[]))`,
      [email, kept],
    );
    if (kept.length > 0) {
      await queue.enqueue(tx, ACCOUNT_MAIL_FORGET_JOB, { mailIds: kept }, { delayMs: MAIL_LIMIT_WINDOW_MS });
    }
  }
}

/**
 * Ends the user's memberships' ownership: each memorial where they are the only owner goes to its named
 * successor first (docs/roles.md), else gets a new owner (the next member: editor, contributor, guest; the
 * longest member first), or is archived for removal. A successor's address without an account gets an
 * ownership invitation, and the page is kept (not archived) meanwhile. Returns how many passed on and the
 * ids of those to be removed.
 */
async function passOnMemorials(
  tx: Queryable,
  caller: Caller & { kind: 'user' },
  removeAfter: Date,
  toSuccessor: (memorialId: string) => Promise<'owner' | 'invited' | null>,
): Promise<{ passedOn: number; orphaned: string[] }> {
  const { rows: owned } = await tx.query<{ memorial_id: string }>(
    `SELECT mm.memorial_id FROM memorial_members mm
      WHERE mm.user_id = $1 AND mm.role = 'owner'
        AND NOT EXISTS (SELECT 1 FROM memorial_members o WHERE o.memorial_id = mm.memorial_id
                          AND o.role = 'owner' AND o.user_id <> $1)
      ORDER BY mm.memorial_id
      FOR UPDATE`,
    [caller.userId],
  );
  let passedOn = 0;
  const orphaned: string[] = [];
  for (const { memorial_id: memorialId } of owned) {
    const handedOver = await toSuccessor(memorialId);
    if (handedOver === 'owner') {
      passedOn++;
      continue;
    }
    const { rows: next } = await tx.query<{ id: string; user_id: string }>(
      `UPDATE memorial_members SET role = 'owner', updated_at = now()
        WHERE id = (SELECT id FROM memorial_members
                     WHERE memorial_id = $1 AND user_id <> $2
                     ORDER BY ${SUCCESSION}, created_at, id LIMIT 1)
        RETURNING id, user_id`,
      [memorialId, caller.userId],
    );
    const successor = next[0];
    if (successor) {
      passedOn++;
      await recordAudit(tx, {
        memorialId,
        actor: null,
        action: 'member.owner_succeeded',
        targetType: 'member',
        targetId: successor.id,
        details: { userId: successor.user_id, reason: 'account_deleted' },
      });
    } else if (handedOver === 'invited') {
      // Kept for the successor, who was mailed an ownership invitation.
      passedOn++;
    } else {
      orphaned.push(memorialId);
      await tx.query(
        `UPDATE memorials SET status = 'archived', remove_after = $2, updated_at = now() WHERE id = $1`,
        [memorialId, removeAfter],
      );
      await recordAudit(tx, {
        memorialId,
        actor: null,
        action: 'memorial.orphaned',
        details: { reason: 'account_deleted', removeAfter: removeAfter.toISOString() },
      });
    }
  }
  return { passedOn, orphaned };
}

/** The scheduled jobs of account deletion. */
export function registerAccountJobs(deps: Pick<Deps, 'db' | 'queue' | 'clock'>) {
  const { db, queue } = deps;
  queue.register(ORPHANED_MEMORIAL_JOB, 'system', async (payload) => {
    const memorialId = String(payload.memorialId);
    const { rows } = await db.query<{ remove_after: Date | string }>(
      `SELECT m.remove_after FROM memorials m WHERE m.id = $1::uuid AND m.status = 'archived'
          AND m.remove_after IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM memorial_members mm WHERE mm.memorial_id = m.id)`,
      [memorialId],
    );
    // Gone already, or it found a member again: nothing to do.
    if (!rows[0]) return;
    const wait = new Date(rows[0].remove_after).getTime() - deps.clock.now().getTime();
    if (wait > 0) {
      // Run early (a clock that differs): again when it is due.
      await queue.enqueue(db, ORPHANED_MEMORIAL_JOB, { memorialId }, { delayMs: wait, maxAttempts: 10 });
      return;
    }
    // Its media rows go with it; their delete trigger queues the removal of the files (modules/media/jobs.ts).
    await db.query(
      `DELETE FROM memorials m WHERE m.id = $1::uuid AND m.status = 'archived'
          AND NOT EXISTS (SELECT 1 FROM memorial_members mm WHERE mm.memorial_id = m.id)`,
      [memorialId],
    );
  });
  queue.register(ACCOUNT_MAIL_FORGET_JOB, 'system', async (payload) => {
    const ids = Array.isArray(payload.mailIds) ? payload.mailIds.map(String) : [];
    await db.query('DELETE FROM mail_outbox WHERE id::text = ANY($1::text[])', [ids]);
  });
}

/**
 * A deleted account leaves the companies it was a partner user of (issue 14). When it was the last
 * administrator, the colleague who joined first becomes one; a company left without users can be claimed
 * again by its own e-mail address (as after the team's approval). Each step in the company's audit log.
 */
async function leaveCompanies(tx: Queryable, userId: string) {
  const { rows } = await tx.query<{ company_id: string; email: string }>(
    `DELETE FROM company_users cu USING companies c
      WHERE cu.user_id = $1 AND c.id = cu.company_id
      RETURNING cu.company_id, c.email`,
    [userId],
  );
  for (const { company_id: companyId, email } of rows) {
    const audit = (action: string, details: Record<string, unknown>) =>
      tx.query(
        `INSERT INTO company_audit_log (company_id, actor_kind, action, details) VALUES ($1, 'system', $2, $3)`,
        [companyId, action, JSON.stringify(details)],
      );
    await audit('company.user_left', { reason: 'account_deleted' });
    const { rows: admins } = await tx.query(
      'SELECT 1 FROM company_users WHERE company_id = $1 AND is_admin LIMIT 1',
      [companyId],
    );
    if (admins.length > 0) continue;
    const { rows: next } = await tx.query<{ user_id: string }>(
      `UPDATE company_users SET is_admin = true
        WHERE (company_id, user_id) = (SELECT company_id, user_id FROM company_users WHERE company_id = $1
                                        ORDER BY created_at, user_id LIMIT 1)
        RETURNING user_id`,
      [companyId],
    );
    if (next[0]) await audit('company.admin_granted', { userId: next[0].user_id, reason: 'last_admin_left' });
    else {
      await tx.query('UPDATE companies SET claim_email = email, updated_at = now() WHERE id = $1', [
        companyId,
      ]);
      await audit('company.claim_reopened', { email });
    }
  }
}

/**
 * The sign-in buttons the web may show. The embedded provider federates to Google only with its credentials;
 * an external provider (Keycloak) has its own broker under the alias `google` (docs/identity.md).
 */
export function signInMethods(config: Pick<Deps['config'], 'embeddedIdentity' | 'googleEnabled'>) {
  return { google: config.embeddedIdentity ? config.googleEnabled : true };
}
