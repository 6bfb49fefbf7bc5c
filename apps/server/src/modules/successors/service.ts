import {
  SUCCESSOR_INACTIVE_DAYS,
  SUCCESSOR_REMINDER_INTERVAL_DAYS,
  type Successor,
  type SuccessorSet,
  type TeamHandOver,
} from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, unauthorized } from '../../lib/errors.ts';
import { dailyJob, registerJobs } from '../../lib/jobs/typed-jobs.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, memorialNotFound } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { succession } from '../../shared/succession.ts';
import { requireTeamMember } from '../../shared/team.ts';
import { handedOverMail, inactivityReminderMail } from './mails.ts';
import { successorsRepository } from './repository.ts';
import { lockMemorial } from '../../shared/memorial-row.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

/** The daily look for silent owners (payload: none); it queues its next run itself. */
export const INACTIVITY_JOB = 'successor.inactivity-check';
const DAY_MS = 24 * 3_600_000;

type SuccessorDeps = Pick<Deps, 'db' | 'outbox' | 'config' | 'clock' | 'queue'>;

/**
 * Successors (docs/roles.md): an owner names who takes the page over when the last
 * owner is gone; the team hands a page to a family member on request. Both recorded in the audit log.
 */
export function successorService(deps: SuccessorDeps) {
  const { db, config, outbox } = deps;
  const access = memorialAccessService(db);
  const repo = successorsRepository(db);
  const handOver = succession(deps);

  const present = async (memorialId: string): Promise<Successor> => {
    const s = await repo.find(memorialId);
    return {
      successor: s
        ? { userId: s.user_id, name: s.name, email: s.email, createdAt: new Date(s.created_at).toISOString() }
        : null,
    };
  };

  return {
    async get(caller: Caller, memorialId: string): Promise<Successor> {
      await access.require(caller, memorialId, 'owner');
      return present(memorialId);
    },

    /** Names (or changes) the successor: another member of the page, or an e-mail address. */
    async set(caller: Caller, memorialId: string, input: SuccessorSet): Promise<Successor> {
      await access.require(caller, memorialId, 'owner');
      if (caller.kind !== 'user') throw unauthorized();
      let successor: { userId: string | null; email: string | null };
      if ('userId' in input) {
        if (input.userId === caller.userId || !(await repo.memberRole(memorialId, input.userId)))
          throw badRequest('Kies een ander lid van deze pagina.', {
            userId: 'Kies een ander lid van deze pagina',
          });
        successor = { userId: input.userId, email: null };
      } else {
        const email = input.email.trim().toLowerCase();
        if (email === caller.email?.toLowerCase())
          throw badRequest('Wijs iemand anders aan dan jezelf.', {
            email: 'Wijs iemand anders aan dan jezelf',
          });
        const member = await repo.memberWithEmail(memorialId, email);
        if (member === caller.userId)
          throw badRequest('Wijs iemand anders aan dan jezelf.', {
            email: 'Wijs iemand anders aan dan jezelf',
          });
        successor = member ? { userId: member, email: null } : { userId: null, email };
      }
      await db.transaction(async (tx) => {
        await successorsRepository(tx).upsert(memorialId, successor, caller.userId);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'successor.named',
          details: successor.userId ? { userId: successor.userId } : { email: successor.email },
        });
      });
      return present(memorialId);
    },

    async remove(caller: Caller, memorialId: string): Promise<Successor> {
      await access.require(caller, memorialId, 'owner');
      await db.transaction(async (tx) => {
        if (await successorsRepository(tx).remove(memorialId))
          await recordAudit(tx, { memorialId, actor: caller, action: 'successor.removed' });
      });
      return { successor: null };
    },

    /** The team gives a page to a family member on request, with a reason kept in the audit log. */
    async teamHandOver(caller: Caller, memorialId: string, input: TeamHandOver) {
      await requireTeamMember(deps, caller);
      if (!isUuid(memorialId)) throw memorialNotFound();
      const email = input.email.trim().toLowerCase();
      const outcome = await db.transaction(async (tx) => {
        // With the name of the account that has the address, should it become owner at once (proven address).
        const target = await successorsRepository(tx).lockForHandOver(memorialId, email);
        if (!target) throw memorialNotFound();
        const result = await handOver.handOverTo(tx, {
          memorialId,
          email,
          actor: caller,
          reason: 'team',
          note: input.reason,
        });
        if (result === 'owner')
          await outbox.enqueue(
            tx,
            handedOverMail({
              to: email,
              name: target.owner_name,
              memorialName: target.name,
              memorialId,
              appUrl: config.APP_URL,
            }),
          );
        return result;
      });
      return { outcome, memorialId };
    },
  };
}

/**
 * The look for silent owners, run daily (and by tests with a moved clock): an owner not seen for a year
 * who alone owns a page with a successor gets a reminder, a second one two weeks later, and two weeks after
 * that the successor takes over; signing in (`users.last_seen_at`, lib/auth.ts) starts the count again.
 */
export async function runInactivityCheck(deps: Omit<SuccessorDeps, 'queue'>, log?: FastifyBaseLogger) {
  const { db, outbox, config } = deps;
  const now = deps.clock.now();
  const repo = successorsRepository(db);
  const handOver = succession(deps);
  const interval = SUCCESSOR_REMINDER_INTERVAL_DAYS * DAY_MS;
  await repo.resetReturned();
  const silent = await repo.silentOwners(new Date(now.getTime() - SUCCESSOR_INACTIVE_DAYS * DAY_MS));
  let reminded = 0;
  let handedOver = 0;
  for (const owner of silent) {
    const last = owner.inactivity_reminded_at ? new Date(owner.inactivity_reminded_at).getTime() : null;
    const due = last === null || now.getTime() - last >= interval;
    if (!due) continue;
    if (owner.inactivity_reminders < 2) {
      const reminder = (owner.inactivity_reminders + 1) as 1 | 2;
      await db.transaction(async (tx) => {
        await successorsRepository(tx).markReminded(owner.user_id, reminder, now);
        if (owner.email)
          await outbox.enqueue(
            tx,
            inactivityReminderMail({
              to: owner.email,
              name: owner.name,
              memorialNames: owner.memorial_names,
              reminder,
              handOverOn: new Date(now.getTime() + (3 - reminder) * interval),
              appUrl: config.APP_URL,
            }),
          );
      });
      reminded++;
      continue;
    }
    await db.transaction(async (tx) => {
      for (const memorialId of owner.memorial_ids) {
        await lockMemorial(tx, memorialId);
        if (await handOver.handOverToSuccessor(tx, memorialId, 'inactive', null)) handedOver++;
      }
      await successorsRepository(tx).markReminded(owner.user_id, 0, null);
    });
  }
  if (reminded + handedOver > 0)
    log?.info({ reminded, handedOver }, 'inactive owners: reminders and hand-overs');
  return { reminded, handedOver };
}

/** Registers the daily job and makes sure one run is queued. */
export function registerSuccessorJobs(deps: SuccessorDeps, log: FastifyBaseLogger) {
  const daily = dailyJob(deps, INACTIVITY_JOB, 'mail', () => runInactivityCheck(deps, log));
  registerJobs(deps.queue, [daily.binding]);
  return { scheduleNext: daily.scheduleNext };
}

/** A deleted account is nobody's successor any more, by account or by address. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await successorsRepository(tx).removeFor(person.userId, person.email);
};
