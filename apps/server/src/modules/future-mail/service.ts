import { createHash, randomBytes } from 'node:crypto';
import {
  FUTURE_MESSAGE_MAX_YEARS,
  FUTURE_MESSAGES_MAX,
  futureMailErrorCodes,
  planErrorCodes,
  routes,
  SUBSCRIBE_CONFIRM_DAYS,
  subscriptionKindLabels,
  subscriptionKinds,
  apiPaths,
  apiPrefix,
  type FutureMessage,
  type FutureMessageList,
  type Subscription,
  type SubscriptionKind,
  type SubscriptionList,
  type futureMessageInputSchema,
  type subscriptionCreateSchema,
} from '@aandenken/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, badRequest } from '../../lib/errors.ts';
import { secretMac } from '../../lib/secret-mac.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { diedAsChild, isLeapYear } from '../../shared/child-age.ts';
import { isUuid } from '../../shared/pagination.ts';
import { limitFor, planPolicy } from '../../shared/plans.ts';
import { iso } from '../../shared/time.ts';
import {
  futureMailRepository,
  futureMessages,
  scheduledMail,
  type MessageRow,
  type SubscriptionAccess,
  type SubscriptionRow,
} from './repository.ts';
import {
  amsterdamDate,
  amsterdamInstant,
  amsterdamIso,
  amsterdamTime,
  secondSundayOfDecember,
} from '../../shared/amsterdam-time.ts';
import {
  anniversaryMail,
  confirmSubscriptionMail,
  futureMessageMail,
  remembranceMail,
  type RemembranceOccasion,
  type UnsubscribeLinks,
} from './mails.ts';
import { memorialNames } from '../../shared/memorial-row.ts';

/** The periodic sweep in the job queue's worker (docs/decisions/014-scheduled-mail-on-the-job-queue.md). */
export const FUTURE_MAIL_TASK = 'future-mail.due';
export const FUTURE_MAIL_EVERY_MS = 60_000;
/** Anniversary reminders go from this hour on (Amsterdam), not in the night. */
const REMINDER_FROM = '08:00';
const DAY_MS = 86_400_000;

export type FutureMailDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'outbox'>;

const toMessage = (r: MessageRow): FutureMessage => {
  const at = new Date(r.send_at);
  const sendDate = amsterdamDate(at);
  const sendTime = amsterdamTime(at);
  return {
    id: r.id,
    memorialId: r.memorial_id,
    subject: r.subject,
    body: r.body,
    sendAt: amsterdamIso(sendDate, sendTime),
    sendDate,
    sendTime,
    status: r.status,
    recipientCount: r.recipient_count,
    skippedCount: r.skipped_count,
    sentAt: r.sent_at ? iso(r.sent_at) : null,
    createdAt: iso(r.created_at),
  };
};

const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  email: r.email,
  name: r.name,
  via: r.access_via,
  kinds: subscriptionKinds.filter((k) => r.kinds.includes(k)),
  createdAt: iso(r.created_at),
  confirmedAt: iso(r.confirmed_at),
  hasAccess: r.has_access,
});

const subscriptionNotFound = () =>
  new AppError(404, futureMailErrorCodes.subscriptionNotFound, 'Deze aanmelding bestaat niet (meer).');
const messageNotFound = () =>
  new AppError(404, futureMailErrorCodes.messageNotFound, 'Dit bericht bestaat niet (meer).');
const tokenInvalid = () =>
  new AppError(400, futureMailErrorCodes.tokenInvalid, 'Deze link is ongeldig of verlopen.');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Signed links in mail: `payload.mac`, the payload base64url JSON `{ m: memorialId, e: address, k: kind }`.
 * No session and no row needed: the signature is the proof that the link came in a mail to that address.
 */
export function mailLinkTokens(db: Queryable) {
  const mac = secretMac(db, 'mail-unsubscribe-links');
  return {
    /**
     * A synchronous signer once the key is loaded: load it before a transaction (PGlite has one
     * connection, so loading the key inside one would wait for that transaction to end).
     */
    async signer() {
      const macOf = await mac.macFn();
      return (p: { memorialId: string; email: string; kind: SubscriptionKind }) => {
        const payload = Buffer.from(
          JSON.stringify({ m: p.memorialId, e: p.email.toLowerCase(), k: p.kind }),
        ).toString('base64url');
        return `${payload}.${macOf(payload)}`;
      };
    },
    async verify(token: string) {
      const [payload, sig, rest] = token.split('.');
      if (!payload || !sig || rest !== undefined || !(await mac.matches(payload, sig))) return null;
      try {
        const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
        if (typeof p.m !== 'string' || !isUuid(p.m) || typeof p.e !== 'string') return null;
        if (!subscriptionKinds.includes(p.k as SubscriptionKind)) return null;
        return { memorialId: p.m, email: p.e, kind: p.k as SubscriptionKind };
      } catch {
        return null;
      }
    },
  };
}

async function links(deps: FutureMailDeps) {
  const sign = await mailLinkTokens(deps.db).signer();
  return (memorialId: string, email: string, kind: SubscriptionKind): UnsubscribeLinks => {
    const t = encodeURIComponent(sign({ memorialId, email, kind }));
    return {
      pageUrl: `${deps.config.APP_URL}${routes.mailUnsubscribe}?t=${t}`,
      oneClickUrl: `${deps.config.API_URL}${apiPrefix}${apiPaths.mailUnsubscribe()}?t=${t}`,
    };
  };
}

export function futureMailService(deps: FutureMailDeps) {
  const { db, config, outbox } = deps;
  const now = () => deps.clock.now();
  const access = memorialAccessService(db);
  const plan = planPolicy({ trialDays: config.TRIAL_DAYS, now });
  const tokens = mailLinkTokens(db);
  const repo = futureMailRepository(db);

  /**
   * The access a sign-up is made with, recorded with it so that each sending can check it still holds: a
   * member's account, a guest token (its id and the access code's version, which the token was just checked
   * against), or else a visitor of a public page.
   */
  async function signUpAccess(caller: Caller, memorialId: string, role: string): Promise<SubscriptionAccess> {
    if (caller.kind === 'user' && role !== 'visitor')
      return { via: 'member', userId: caller.userId, guestTokenId: null, accessCodeVersion: null };
    if (caller.kind === 'guest' && caller.memorialId === memorialId) {
      const g = await repo.guestTokenAccess(memorialId, caller.tokenId);
      if (g)
        return {
          via: g.from_link ? 'link' : 'code',
          userId: null,
          guestTokenId: caller.tokenId,
          accessCodeVersion: g.access_code_version,
        };
    }
    return { via: 'public', userId: null, guestTokenId: null, accessCodeVersion: null };
  }

  async function requireManager(caller: Caller, memorialId: string, writing: boolean) {
    const acc = await access.require(caller, memorialId, 'editor');
    if (writing && acc.status === 'archived') throw memorialArchived();
    return acc;
  }

  /** The moment the family chose, checked against now and the far future. */
  function sendAtOf(input: z.output<typeof futureMessageInputSchema>) {
    const at = amsterdamInstant(input.sendDate, input.sendTime);
    if (at.getTime() <= now().getTime())
      throw new AppError(400, futureMailErrorCodes.sendAtInPast, 'Kies een moment in de toekomst.', {
        sendDate: 'Kies een moment in de toekomst',
      });
    if (at.getTime() > now().getTime() + FUTURE_MESSAGE_MAX_YEARS * 366 * DAY_MS)
      throw badRequest(`Een bericht kan hoogstens ${FUTURE_MESSAGE_MAX_YEARS} jaar vooruit worden gepland.`, {
        sendDate: `Hoogstens ${FUTURE_MESSAGE_MAX_YEARS} jaar vooruit`,
      });
    return at;
  }

  const countUsed = futureMessages.countUsed;

  async function findForUpdate(q: Queryable, memorialId: string, messageId: string) {
    if (!isUuid(messageId)) throw messageNotFound();
    const row = await futureMessages.findForUpdate(q, memorialId, messageId);
    if (!row) throw messageNotFound();
    if (row.status !== 'scheduled')
      throw new AppError(
        409,
        futureMailErrorCodes.messageNotEditable,
        row.status === 'sent'
          ? 'Dit bericht is al verstuurd en kan niet meer worden gewijzigd.'
          : 'Dit bericht is geannuleerd en kan niet meer worden gewijzigd.',
      );
    return row;
  }

  return {
    async list(caller: Caller, memorialId: string): Promise<FutureMessageList> {
      await requireManager(caller, memorialId, false);
      const rows = await futureMessages.list(db, memorialId);
      const state = await plan.stateOf(db, memorialId);
      return {
        messages: rows.map(toMessage),
        limit: limitFor(state, 'futureMessages'),
        used: (await countUsed(db, memorialId)).n,
        recipients: (await repo.recipients(memorialId, 'messages')).filter((r) => r.has_access).length,
      };
    },

    async create(caller: Caller, memorialId: string, input: z.output<typeof futureMessageInputSchema>) {
      await requireManager(caller, memorialId, true);
      const sendAt = sendAtOf(input);
      return db.transaction(async (tx) => {
        // The plan row's lock: two messages written at once cannot both take the last place.
        const state = await plan.requireWritable(tx, memorialId, true);
        const used = await countUsed(tx, memorialId);
        const max = limitFor(state, 'futureMessages');
        if (max !== null && used.n >= max)
          throw new AppError(
            403,
            planErrorCodes.planLimit,
            `Met het Basis-abonnement kan de pagina ${max === 1 ? 'één toekomstig bericht' : `${max} toekomstige berichten`} hebben, en dat is er al. Met Premium zijn toekomstige berichten onbeperkt.`,
          );
        if (used.waiting >= FUTURE_MESSAGES_MAX)
          throw new AppError(
            409,
            futureMailErrorCodes.tooMany,
            `Er kunnen hoogstens ${FUTURE_MESSAGES_MAX} berichten tegelijk gepland staan.`,
          );
        const row = await futureMessages.insert(tx, memorialId, {
          subject: input.subject,
          body: input.body,
          sendAt,
          createdBy: caller.kind === 'user' ? caller.userId : null,
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'future_message.created',
          targetType: 'future_message',
          targetId: row.id,
          details: { sendAt: iso(row.send_at) },
        });
        return toMessage(row);
      });
    },

    async update(
      caller: Caller,
      memorialId: string,
      messageId: string,
      input: z.output<typeof futureMessageInputSchema>,
    ) {
      await requireManager(caller, memorialId, true);
      const sendAt = sendAtOf(input);
      return db.transaction(async (tx) => {
        await plan.requireWritable(tx, memorialId);
        // Waits for a sweep that is sending it right now, and then sees it was sent.
        await findForUpdate(tx, memorialId, messageId);
        const rows = await futureMessages.update(tx, messageId, {
          subject: input.subject,
          body: input.body,
          sendAt,
        });
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'future_message.updated',
          targetType: 'future_message',
          targetId: messageId,
          details: { sendAt: iso(rows[0]!.send_at) },
        });
        return toMessage(rows[0]!);
      });
    },

    async cancel(caller: Caller, memorialId: string, messageId: string) {
      await requireManager(caller, memorialId, false);
      return db.transaction(async (tx) => {
        await findForUpdate(tx, memorialId, messageId);
        const rows = await futureMessages.cancel(tx, messageId);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'future_message.cancelled',
          targetType: 'future_message',
          targetId: messageId,
          details: {},
        });
        return toMessage(rows[0]!);
      });
    },

    /**
     * A visitor (or member) leaves an address with consent. Always the same answer, whether the address
     * was new, known or confirmed already (nothing to learn about others); a confirmation mail goes to
     * the address, counted against it like an invitation.
     */
    async subscribe(caller: Caller, memorialId: string, input: z.output<typeof subscriptionCreateSchema>) {
      const acc = await access.require(caller, memorialId, 'visitor');
      if (acc.status === 'archived') throw memorialArchived();
      const kinds = subscriptionKinds.filter((k) => input.kinds.includes(k));
      const token = randomBytes(32).toString('base64url');
      const signUp = await signUpAccess(caller, memorialId, acc.role!);
      const name = caller.kind === 'user' ? caller.name : caller.kind === 'guest' ? caller.guestName : null;
      await db.transaction(async (tx) => {
        const m = await memorialNames(tx, memorialId);
        await repo.upsertSignUp(tx, {
          memorialId,
          email: input.email,
          name: name?.slice(0, 200) ?? null,
          kinds,
          tokenHash: sha256(token),
          expiresAt: new Date(now().getTime() + SUBSCRIBE_CONFIRM_DAYS * DAY_MS),
          access: signUp,
        });
        // Over the address's daily limit: nothing is sent, and the answer does not say so.
        await outbox.enqueueLimited(
          tx,
          confirmSubscriptionMail({
            to: input.email,
            memorialName: `${m!.first_name} ${m!.last_name}`,
            kinds: kinds.map((k) => subscriptionKindLabels[k]),
            confirmUrl: `${config.APP_URL}${routes.mailConfirm}?t=${token}`,
            days: SUBSCRIBE_CONFIRM_DAYS,
          }),
          'invitation',
        );
      });
      return { pending: true as const };
    },

    /** The link in the confirmation mail: the kinds asked for start, earlier opt-outs of them end. */
    async confirm(token: string) {
      return db.transaction(async (tx) => {
        const s = await repo.signUpToConfirm(tx, sha256(token), now());
        if (!s) throw tokenInvalid();
        const kinds = subscriptionKinds.filter((k) => s.kinds.includes(k) || s.pending_kinds.includes(k));
        await repo.confirmSignUp(tx, s.id, kinds, now());
        await repo.endOptOuts(tx, s.memorial_id, s.email, s.pending_kinds);
        return { memorialId: s.memorial_id, memorialName: `${s.first_name} ${s.last_name}`, kinds };
      });
    },

    /**
     * The family sees who signed up (confirmed), how, when, and whether mail still reaches them: a sign-up
     * whose access ended is kept (the page may open again) but skipped at every sending.
     */
    async listSubscriptions(caller: Caller, memorialId: string): Promise<SubscriptionList> {
      await requireManager(caller, memorialId, false);
      return { subscriptions: (await repo.listSignUps(memorialId)).map(toSubscription) };
    },

    /** The family removes a sign-up: nothing more is mailed to it (signing up again needs access and consent). */
    async removeSubscription(caller: Caller, memorialId: string, subscriptionId: string) {
      await requireManager(caller, memorialId, false);
      if (!isUuid(subscriptionId)) throw subscriptionNotFound();
      return db.transaction(async (tx) => {
        const removed = await repo.removeSignUp(tx, memorialId, subscriptionId);
        if (!removed) throw subscriptionNotFound();
        // The address stays out of the audit log: a sign-up is no account, and removing it forgets it.
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'subscription.removed',
          targetType: 'subscription',
          targetId: subscriptionId,
          details: { via: removed.access_via },
        });
        return { id: subscriptionId, removed: true as const };
      });
    },

    /** One click, no session: this kind of mail from this page stops for this address. Repeating is fine. */
    async unsubscribe(token: string) {
      const p = await tokens.verify(token);
      if (!p) throw tokenInvalid();
      return db.transaction(async (tx) => {
        const names = await memorialNames(tx, p.memorialId);
        if (!names) throw tokenInvalid();
        await repo.optOut(tx, p.memorialId, p.email, p.kind);
        return {
          memorialId: p.memorialId,
          memorialName: `${names.first_name} ${names.last_name}`,
          kind: p.kind,
          unsubscribed: true as const,
        };
      });
    },
  };
}

/**
 * Hands due mail to the outbox: future messages whose moment came (by `deps.clock`), and today's
 * anniversary reminders. Each occasion and address is written once to `scheduled_mail_deliveries` (its
 * primary key) in the transaction that queues the mail, so another process, a restart or a second run
 * never mails an address twice; a message is claimed with FOR UPDATE SKIP LOCKED and marked sent in that
 * same transaction, and a cancelled one is never picked up.
 */
export async function runDueMail(deps: FutureMailDeps, log?: FastifyBaseLogger) {
  const { db, outbox, config } = deps;
  const repo = futureMailRepository(db);
  const at = deps.clock.now();
  const linksFor = await links(deps);
  // Dated by the app's clock, as the clean-up below is: the row must outlive every sweep of its occasion.
  const deliver = (q: Queryable, occasion: string, emailLower: string) =>
    scheduledMail.deliverOnce(q, occasion, emailLower, at);

  let messages = 0;
  let mails = 0;
  // Sign-ups whose access to the page had ended when their mail was due: left out, never an error.
  let skipped = 0;
  const due = await futureMessages.due(db, at);
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      const m = await futureMessages.claimDue(tx, id, at);
      if (!m) return;
      let n = 0;
      let left = 0;
      for (const r of await repo.recipients(m.memorial_id, 'messages', tx)) {
        if (!r.has_access) {
          left++;
          continue;
        }
        n++;
        if (!(await deliver(tx, `future-message:${m.id}`, r.email_lower))) continue;
        await outbox.enqueue(
          tx,
          futureMessageMail({
            to: r.email,
            memorialName: `${m.first_name} ${m.last_name}`,
            subject: m.subject,
            body: m.body,
            pageUrl: `${config.APP_URL}${routes.memorial(m.memorial_id)}`,
            links: linksFor(m.memorial_id, r.email_lower, 'messages'),
          }),
        );
        mails++;
      }
      await futureMessages.markSent(tx, m.id, at, n, left);
      skipped += left;
      messages++;
    });
  }

  // Anniversaries: from REMINDER_FROM on the day in Amsterdam, swept once that day by one process (the first
  // run after REMINDER_FROM, also when the server was down at that hour); someone born on 29 February gets
  // theirs on the 28th in other years.
  const today = amsterdamDate(at);
  let reminders = 0;
  if (amsterdamTime(at) >= REMINDER_FROM && (await claimReminderSweep(db, today, at))) {
    try {
      const year = Number(today.slice(0, 4));
      const days = [today.slice(5), ...(!isLeapYear(year) && today.slice(5) === '02-28' ? ['02-29'] : [])];
      const rows = await repo.anniversarySignUps(days, today);
      for (const r of rows) {
        if (!r.has_access) {
          skipped++;
          continue;
        }
        await db.transaction(async (tx) => {
          const emailLower = r.email.toLowerCase();
          if (!(await deliver(tx, `reminder:${r.memorial_id}:${r.kind}:${today}`, emailLower))) return;
          await outbox.enqueue(
            tx,
            anniversaryMail({
              to: r.email,
              name: r.name,
              memorialName: `${r.first_name} ${r.last_name}`,
              kind: r.kind,
              date: (r.kind === 'birthday' ? r.birth_date : r.death_date)!,
              today,
              pageUrl: `${config.APP_URL}${routes.memorial(r.memorial_id)}`,
              links: linksFor(r.memorial_id, emailLower, r.kind),
            }),
          );
          reminders++;
        });
      }

      // Remembering together (docs/funeral-day.md, 'Samen herdenken'), to those who asked for 'remembrance':
      // Allerzielen for every page, Wereldlichtjesdag for a child's page (died before their 18th birthday), and
      // the day of a kaarsjesmoment the family planned.
      const allerzielen = today.slice(5) === '11-02';
      const lichtjesdag = today === secondSundayOfDecember(year);
      const remembering = await repo.remembranceSignUps(today, allerzielen, lichtjesdag);
      for (const r of remembering) {
        if (!r.has_access) {
          skipped++;
          continue;
        }
        const occasions: RemembranceOccasion[] = [
          ...(allerzielen ? (['allerzielen'] as const) : []),
          ...(lichtjesdag && diedAsChild({ birth: r.birth_date, death: r.death_date })
            ? (['wereldlichtjesdag'] as const)
            : []),
          ...(r.moment_time ? (['kaarsjesmoment'] as const) : []),
        ];
        for (const occasion of occasions) {
          await db.transaction(async (tx) => {
            const emailLower = r.email.toLowerCase();
            if (!(await deliver(tx, `remembrance:${r.memorial_id}:${occasion}:${today}`, emailLower))) return;
            await outbox.enqueue(
              tx,
              remembranceMail({
                to: r.email,
                name: r.name,
                memorialName: `${r.first_name} ${r.last_name}`,
                occasion,
                time: r.moment_time ?? undefined,
                pageUrl: `${config.APP_URL}${routes.memorial(r.memorial_id)}`,
                links: linksFor(r.memorial_id, emailLower, 'remembrance'),
              }),
            );
            reminders++;
          });
        }
      }
    } catch (err) {
      // Let the next run (a minute on) try again rather than wait for the claim to lapse.
      await scheduledMail.releaseReminderSweep(db).catch(() => {});
      throw err;
    }
    await scheduledMail.markReminderSweepDone(db, today);
  }
  // Upkeep: sign-ups never confirmed are forgotten when their link expires; delivery rows are needed only
  // while a sweep could run again for their occasion (a message is marked sent, a reminder is for one day).
  await repo.forgetUnconfirmed(at);
  await scheduledMail.forgetOldDeliveries(db, at);
  if (messages + reminders + skipped > 0)
    log?.info({ messages, mails, reminders, skipped }, 'scheduled mail queued');
  return { messages, mails, reminders, skipped };
}

/** How long a process holds the day's reminder sweep; one that died meanwhile is taken over after it. */
const SWEEP_CLAIM_MS = 10 * 60_000;

/**
 * Whether this run sweeps `today`'s reminders: not yet swept that day and no other process at it. The day is
 * marked swept when the sweep ends; a sweep cut off halfway is run again after its claim lapses, and the
 * deliveries' unique key keeps those already mailed from getting it twice.
 */
function claimReminderSweep(db: Queryable, today: string, at: Date): Promise<boolean> {
  return scheduledMail.claimReminderSweep(db, today, new Date(at.getTime() + SWEEP_CLAIM_MS), at);
}

/**
 * The sweep runs in the job queue's worker of every process, about once a minute: due messages every time,
 * the day's reminders once a day.
 */
export function registerFutureMailJobs(deps: FutureMailDeps & Pick<Deps, 'queue'>, log: FastifyBaseLogger) {
  deps.queue.every(FUTURE_MAIL_TASK, 'mail', FUTURE_MAIL_EVERY_MS, async () => {
    await runDueMail(deps, log);
  });
}
