import {
  PLAN_REMINDER_DAYS,
  plans,
  roleAtLeast,
  routes,
  type MemorialPlan,
  type PaymentStatus,
  type TeamMemorialPlan,
  type TeamMemorials,
  type teamPlanSetSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, forbidden, unauthorized } from '../../lib/errors.ts';
import { amsterdamDaysUntil } from '../../shared/amsterdam-time.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService, memorialNotFound } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import { limitFor, planPolicy, planStateOf, type PlanState } from '../../shared/plans.ts';
import { isTeamMember } from '../../shared/team.ts';
import { invoiceLinkSigner, invoiceNumber } from '../payments/service.ts';
import { planNoticeMail, type NoticeKind } from './mails.ts';
import { plansRepository } from './repository.ts';

const DAY_MS = 86_400_000;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Plans of memorials (docs/plans.md): what a page has, the reminder mails, the team's hand. */
export function planService(deps: Pick<Deps, 'db' | 'config' | 'outbox' | 'clock'>) {
  const { db, config, outbox } = deps;
  const now = () => deps.clock.now();
  const policy = planPolicy({ trialDays: config.TRIAL_DAYS, now });
  const access = memorialAccessService(db);
  const repo = plansRepository(db);
  const payUrl = (memorialId: string) => `${config.APP_URL}${routes.payment(memorialId)}`;
  const invoiceLinks = invoiceLinkSigner(db);
  const HOUR_MS = 3_600_000;

  /** An invoice's number and a signed link to its PDF (an hour). */
  const link = async (id: string | null, number: number | null) =>
    id === null
      ? null
      : {
          id,
          number: invoiceNumber(number!),
          url: `${config.API_URL}/core/invoices/${id}/pdf?${await invoiceLinks.sign(id, new Date(now().getTime() + HOUR_MS))}`,
        };

  async function present(memorialId: string, state: PlanState, canPay: boolean): Promise<MemorialPlan> {
    const payments = canPay ? await repo.payments(memorialId) : [];
    // Calendar days in Amsterdam: a page made today shows the whole trial, not one day less.
    const daysLeft = state.endsAt ? amsterdamDaysUntil(state.endsAt, now()) : null;
    return {
      memorialId,
      plan: state.plan,
      state: state.readOnly ? 'read_only' : 'active',
      endsAt: iso(state.endsAt),
      daysLeft,
      paidByCompany: state.paidByCompany,
      features: state.readOnly ? [] : [...plans[state.plan].features],
      memories: { used: await repo.publishedMemories(memorialId), max: limitFor(state, 'memories') },
      canPay: canPay && !state.paidByCompany,
      paymentsEnabled: config.paymentsEnabled,
      videoAndMusic: config.ffmpegPath !== null,
      payments: await Promise.all(
        payments.map(async (p) => ({
          id: p.id,
          memorialId: p.memorial_id,
          plan: p.plan,
          amountCents: p.amount_cents,
          status: p.status as PaymentStatus,
          createdAt: iso(p.created_at)!,
          paidAt: iso(p.paid_at),
          invoice: await link(p.invoice_id, p.invoice_number),
          refundedAt: iso(p.refunded_at),
          creditInvoice: await link(p.credit_id, p.credit_number),
        })),
      ),
    };
  }

  async function requireTeam(caller: Caller, message: string) {
    if (caller.kind !== 'user') throw unauthorized();
    if (!(await isTeamMember({ db, config }, caller))) throw forbidden(message);
  }

  async function teamPresent(memorialId: string): Promise<TeamMemorialPlan> {
    const row = isUuid(memorialId) ? await repo.teamRow(memorialId) : undefined;
    if (!row) throw memorialNotFound();
    const plan = await present(memorialId, await policy.stateOf(db, memorialId), true);
    return { ...plan, memorialName: row.name, trialStartedAt: iso(row.trial_started_at)! };
  }

  return {
    policy,

    /** For members and guests of the page (they are the ones who could add); owners and editors may pay. */
    async get(caller: Caller, memorialId: string): Promise<MemorialPlan> {
      const acc = await access.require(caller, memorialId, 'guest');
      const state = await policy.stateOf(db, memorialId);
      return present(memorialId, state, caller.kind === 'user' && roleAtLeast(acc.role, 'editor'));
    },

    /**
     * The reminder mails: 7 days and 1 day before a trial or Basis year ends, and when the page becomes
     * read-only; each once per period (memorial_plan_notices), written with its mail in one transaction.
     * Runs every hour (routes.ts) and on start; returns how many mails it wrote.
     */
    async sweep(at: Date = now()): Promise<number> {
      const horizon = new Date(at.getTime() + Math.max(...PLAN_REMINDER_DAYS) * DAY_MS);
      let sent = 0;
      for (const row of await repo.endingBefore(horizon, config.TRIAL_DAYS)) {
        const state = planStateOf(row, at, config.TRIAL_DAYS);
        if (!state.endsAt) continue;
        const left = state.endsAt.getTime() - at.getTime();
        const kind: NoticeKind = left <= 0 ? 'read_only' : left <= 1 * DAY_MS ? 'ends_in_1' : 'ends_in_7';
        sent += await db.transaction(async (tx) => {
          if (!(await repo.claimNotice(tx, row.memorial_id, kind, state.endsAt!))) return 0;
          const owners = await repo.owners(tx, row.memorial_id);
          for (const owner of owners)
            await outbox.enqueue(
              tx,
              planNoticeMail({
                to: owner.email,
                ownerName: owner.name,
                memorialName: row.memorial_name,
                kind,
                plan: state.plan,
                endsAt: state.endsAt!,
                payUrl: payUrl(row.memorial_id),
              }),
            );
          return owners.length;
        });
      }
      return sent;
    },

    /** The team finds a page by (part of) its name, or its number (the UUID, or an address holding it). */
    async teamSearch(caller: Caller, q: string): Promise<TeamMemorials> {
      await requireTeam(caller, 'Alleen het team van Aandenken kan pagina’s opzoeken.');
      const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(q)?.[0] ?? null;
      return { items: await repo.search(id ? null : q, id) };
    },

    /** A page's plan, its trial, payments and invoices, for the team. */
    async teamGet(caller: Caller, memorialId: string): Promise<TeamMemorialPlan> {
      await requireTeam(caller, 'Alleen het team van Aandenken kan het abonnement van een pagina zien.');
      return teamPresent(memorialId);
    },

    /** The team sets a page's plan by hand (payments off, a gift, a correction); audited on the page. */
    async teamSet(caller: Caller, memorialId: string, input: z.output<typeof teamPlanSetSchema>) {
      await requireTeam(caller, 'Alleen het team van Aandenken kan het abonnement van een pagina instellen.');
      if (!isUuid(memorialId)) throw memorialNotFound();
      let paidUntil: Date | null = null;
      if (input.plan === 'basis') {
        paidUntil = input.paidUntil ? new Date(input.paidUntil) : new Date(now().getTime() + 365 * DAY_MS);
        if (Number.isNaN(paidUntil.getTime()))
          throw badRequest('Ongeldige datum.', { paidUntil: 'Geef een geldige datum' });
      }
      await db.transaction(async (tx) => {
        const before = await policy.stateOf(tx, memorialId, true);
        if (!(await repo.setPlan(tx, memorialId, input.plan, paidUntil))) throw memorialNotFound();
        if (input.plan === 'trial') await repo.restartTrial(tx, memorialId);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'plan.set_by_team',
          details: { from: before.plan, to: input.plan, paidUntil: iso(paidUntil), reason: input.reason },
        });
      });
      return teamPresent(memorialId);
    },

    /**
     * Takes back what a refunded payment bought (payments module, in the refund's transaction): Premium goes
     * back to the trial as it was (read-only once it ended); a Basis year is taken off its end.
     */
    async revoke(tx: Queryable, memorialId: string, plan: 'basis' | 'premium') {
      const state = await policy.stateOf(tx, memorialId, true);
      if (plan === 'premium' && state.plan === 'premium') await repo.setPlan(tx, memorialId, 'trial', null);
      if (plan === 'basis' && state.plan === 'basis' && state.endsAt) {
        const until = new Date(state.endsAt);
        until.setFullYear(until.getFullYear() - 1);
        await repo.setPlan(tx, memorialId, 'basis', until);
      }
    },

    /** Grants a paid plan (payments module, in the transaction that saw the payment paid). */
    async grant(tx: Queryable, memorialId: string, plan: 'basis' | 'premium'): Promise<Date | null> {
      const state = await policy.stateOf(tx, memorialId, true);
      if (plan === 'premium') {
        await repo.setPlan(tx, memorialId, 'premium', null);
        return null;
      }
      // Premium stays Premium. Basis: a year from now, or from the end of the current Basis year.
      if (state.plan === 'premium') return null;
      const from = state.plan === 'basis' && state.endsAt && state.endsAt > now() ? state.endsAt : now();
      const until = new Date(from);
      until.setFullYear(until.getFullYear() + 1);
      await repo.setPlan(tx, memorialId, 'basis', until);
      return until;
    },
  };
}
export type PlanService = ReturnType<typeof planService>;
