import {
  ACCOUNT_DELETE_WORD,
  ORPHANED_MEMORIAL_DAYS,
  type AccountDelete,
  type AccountDeleteResult,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { outboxForgetting } from '../../lib/mail-outbox.ts';
import { AppError, badRequest, unauthorized } from '../../lib/errors.ts';
import type { ForgetPerson, PersonToForget } from '../../shared/forget-person.ts';
import { succession } from '../../shared/succession.ts';
import { forgetPerson as forgetAudit } from '../audit/service.ts';
import { forgetPerson as forgetCandles } from '../candles/service.ts';
import { forgetPerson as forgetCompanies } from '../companies/service.ts';
import { forgetPerson as forgetInvites } from '../invites/service.ts';
import { forgetPerson as forgetMemberships, passOnOwnership } from '../members/service.ts';
import { forgetPerson as forgetMemories } from '../memories/service.ts';
import {
  archiveOrphaned,
  forgetPerson as forgetMemorials,
  orphanedRemoveAfter,
  removeOrphaned,
} from '../memorials/service.ts';
import { forgetPerson as forgetPayments } from '../payments/service.ts';
import { forgetPerson as forgetSuccessors } from '../successors/service.ts';
import { accountRepository as repo } from './repository.ts';

/** Removes a memorial kept read-only after its only member deleted their account (payload: memorialId). */
export const ORPHANED_MEMORIAL_JOB = 'memorial.remove-orphaned';
/** Removes the outbox rows kept for the per-address mail limit (payload: mailIds). */
export const ACCOUNT_MAIL_FORGET_JOB = 'account.forget-mail';

const DAY_MS = 24 * 3_600_000;
/** The per-recipient limit counts a day of mails (lib/mail-outbox.ts). */
const MAIL_LIMIT_WINDOW_MS = DAY_MS;

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

/**
 * `forgetSignIns`: the identity provider's `forgetPerson` (its login counters and pending sign-ins), given by
 * the composition like `endAllSessions`, since a feature does not import identity.
 */
export function accountService(
  deps: Pick<Deps, 'db' | 'queue' | 'config' | 'clock' | 'outbox'>,
  endAllSessions: EndAllSessions,
  forgetSignIns: ForgetPerson,
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
      const user = await repo.find(db, caller.userId);
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
        const passed = await passOnOwnership(tx, userId, {
          toSuccessor: (memorialId) =>
            successors.handOverToSuccessor(tx, memorialId, 'account_deleted', userId),
          orphan: (memorialId) => archiveOrphaned(tx, memorialId, removeAfter),
        });
        for (const memorialId of passed.orphaned) {
          await queue.enqueue(
            tx,
            ORPHANED_MEMORIAL_JOB,
            { memorialId },
            { delayMs: removeAfter.getTime() - deps.clock.now().getTime(), maxAttempts: 10 },
          );
        }

        // Sign-in ends everywhere; the account (and its mailed links, Google link) goes.
        const person: PersonToForget = { userId, email };
        if (/^[0-9a-f-]{36}$/i.test(userId)) {
          await endAllSessions(tx, userId);
          await repo.deleteAccount(tx, userId);
        }
        await repo.anonymise(tx, userId);
        // Each feature forgets the person in its own tables, in this transaction.
        await forgetMemberships(tx, person);
        await forgetSuccessors(tx, person);
        await forgetMemorials(tx, person);
        await forgetCompanies(tx, person);
        // What they left on memorials stays, from "een voormalig lid".
        await forgetMemories(tx, person);
        await forgetCandles(tx, person);
        await forgetAudit(tx, person);
        await forgetInvites(tx, person);
        await forgetPayments(tx, person);
        if (email !== '') {
          await forgetSignIns(tx, person);
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
    const limitKeys = [`account:${email}`, `invitation:${email}`, `visitor:${email}`];
    const kept = await outboxForgetting.countingAgainstLimit(tx, limitKeys);
    await outboxForgetting.deleteMailOf(tx, email, kept);
    if (kept.length > 0) {
      await queue.enqueue(tx, ACCOUNT_MAIL_FORGET_JOB, { mailIds: kept }, { delayMs: MAIL_LIMIT_WINDOW_MS });
    }
  }
}

/** The scheduled jobs of account deletion. */
export function registerAccountJobs(deps: Pick<Deps, 'db' | 'queue' | 'clock'>) {
  const { db, queue } = deps;
  queue.register(ORPHANED_MEMORIAL_JOB, 'system', async (payload) => {
    const memorialId = String(payload.memorialId);
    const removeAfter = await orphanedRemoveAfter(db, memorialId);
    // Gone already, or it found a member again: nothing to do.
    if (!removeAfter) return;
    const wait = new Date(removeAfter).getTime() - deps.clock.now().getTime();
    if (wait > 0) {
      // Run early (a clock that differs): again when it is due.
      await queue.enqueue(db, ORPHANED_MEMORIAL_JOB, { memorialId }, { delayMs: wait, maxAttempts: 10 });
      return;
    }
    await removeOrphaned(db, memorialId);
  });
  queue.register(ACCOUNT_MAIL_FORGET_JOB, 'system', async (payload) => {
    const ids = Array.isArray(payload.mailIds) ? payload.mailIds.map(String) : [];
    await outboxForgetting.deleteMails(db, ids);
  });
}

/**
 * The sign-in buttons the web may show. The embedded provider federates to Google only with its credentials;
 * an external provider (Keycloak) has its own broker under the alias `google` (docs/identity.md).
 */
export function signInMethods(config: Pick<Deps['config'], 'embeddedIdentity' | 'googleEnabled'>) {
  return { google: config.embeddedIdentity ? config.googleEnabled : true };
}
