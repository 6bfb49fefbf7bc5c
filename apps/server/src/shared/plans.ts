import { planErrorCodes, plans, type PlanFeature, type PlanId, type PlanLimit } from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../lib/errors.ts';

/** A memorial's plan row (migration 110). */
export type PlanRow = {
  plan: PlanId;
  trial_started_at: Date | string;
  paid_until: Date | string | null;
  payer_company_id: string | null;
};

/** What a memorial may do now: its plan, and whether it is read-only (trial or Basis year ended unpaid). */
export interface PlanState {
  plan: PlanId;
  readOnly: boolean;
  /** The trial's or the Basis year's end; null for Premium. */
  endsAt: Date | null;
  paidByCompany: boolean;
}

const DAY_MS = 86_400_000;

export function planStateOf(row: PlanRow, now: Date, trialDays: number): PlanState {
  const paidByCompany = row.payer_company_id !== null;
  if (row.plan === 'premium') return { plan: 'premium', readOnly: false, endsAt: null, paidByCompany };
  const endsAt =
    row.plan === 'basis'
      ? new Date(row.paid_until!)
      : new Date(new Date(row.trial_started_at).getTime() + trialDays * DAY_MS);
  return { plan: row.plan, readOnly: endsAt.getTime() <= now.getTime(), endsAt, paidByCompany };
}

/**
 * The one check for what a plan offers: features other issues build (guestbook, video builder, AI
 * biography, printed book) ask `planAllows(state, 'guestbook')`. A read-only page offers nothing new.
 */
export function planAllows(state: PlanState, feature: PlanFeature): boolean {
  return !state.readOnly && plans[state.plan].features.includes(feature);
}

/** The plan's limit (null = unlimited), e.g. `limitFor(state, 'memories')`: 6 on Basis. */
export function limitFor(state: PlanState, limit: PlanLimit): number | null {
  return plans[state.plan].limits[limit];
}

export const planReadOnly = () =>
  new AppError(
    403,
    planErrorCodes.planReadOnly,
    'De proefperiode of het betaalde jaar van deze gedenkpagina is voorbij. De pagina blijft online en te lezen, maar er kan niets nieuws bij tot een beheerder een abonnement kiest.',
  );

/** 403 PLAN_FEATURE: a Premium feature asked on a page whose plan does not include it (e.g. Basis). */
export const planFeatureMissing = (what: string) =>
  new AppError(
    403,
    planErrorCodes.planFeature,
    `${what} hoort bij Premium. Deze gedenkpagina heeft het Basis-abonnement; een beheerder kan overstappen naar Premium.`,
  );

export const planLimitReached = (max: number) =>
  new AppError(
    403,
    planErrorCodes.planLimit,
    `Met het Basis-abonnement kunnen er ${max} herinneringen op de pagina staan, en die zijn er al. Met Premium zijn herinneringen onbeperkt.`,
  );

/**
 * The plan checks the services make: `requireWritable` before anything new is added (a read-only page
 * answers 403 PLAN_READ_ONLY), `requireMemoryRoom` before a memory is published (403 PLAN_LIMIT when the
 * plan's memories are used up). Pass the transaction that makes the change; `lock` holds the plan row
 * until it ends, so two publications at once cannot both take the last place.
 */
export function planPolicy({ trialDays, now = () => new Date() }: { trialDays: number; now?: () => Date }) {
  async function stateOf(q: Queryable, memorialId: string, lock = false): Promise<PlanState> {
    const { rows } = await q.query<PlanRow>(
      `SELECT plan, trial_started_at, paid_until, payer_company_id::text AS payer_company_id
         FROM memorial_plans WHERE memorial_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [memorialId],
    );
    // A memorial always has a row (trigger of migration 110); without one it is treated as a new trial.
    const row = rows[0] ?? {
      plan: 'trial',
      trial_started_at: now(),
      paid_until: null,
      payer_company_id: null,
    };
    return planStateOf(row, now(), trialDays);
  }

  async function requireWritable(q: Queryable, memorialId: string, lock = false): Promise<PlanState> {
    const state = await stateOf(q, memorialId, lock);
    if (state.readOnly) throw planReadOnly();
    return state;
  }

  return {
    stateOf,
    requireWritable,
    /** Read-only check, then the memories limit: published memories count. */
    async requireMemoryRoom(q: Queryable, memorialId: string, lock = false): Promise<PlanState> {
      const state = await requireWritable(q, memorialId, lock);
      const max = limitFor(state, 'memories');
      if (max !== null) {
        const { rows } = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM memories WHERE memorial_id = $1 AND status = 'published'`,
          [memorialId],
        );
        if (rows[0]!.n >= max) throw planLimitReached(max);
      }
      return state;
    },
  };
}
export type PlanPolicy = ReturnType<typeof planPolicy>;
