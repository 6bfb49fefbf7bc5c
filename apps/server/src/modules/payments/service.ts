import {
  plans,
  planErrorCodes,
  roleAtLeast,
  routes,
  type Payment,
  type PaymentStatus,
  type paymentCreateSchema,
  type teamRefundSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, conflict, forbidden, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import type { planPolicy } from '../../shared/plans.ts';
import { isTeamMember } from '../../shared/team.ts';
import { dateNl } from '../../lib/mail-format.ts';
import { invoiceMail } from './mails.ts';

/**
 * What this module needs of the plans module (plans/service.ts `planService` provides it; named here so
 * that the two modules do not import each other): a paid plan granted, a refunded one taken back, each in
 * the caller's transaction.
 */
export interface PlanGrants {
  grant(tx: Queryable, memorialId: string, plan: 'basis' | 'premium'): Promise<Date | null>;
  revoke(tx: Queryable, memorialId: string, plan: 'basis' | 'premium'): Promise<void>;
  policy: Pick<ReturnType<typeof planPolicy>, 'stateOf'>;
}

// What the plans module shows of invoices (other modules reach this one through service.ts).
export { invoiceLinkSigner, invoiceNumber } from './invoices.ts';
import {
  invoiceLinkSigner,
  invoiceNumber,
  invoicePdf,
  invoicesRepository,
  type InvoiceRow,
} from './invoices.ts';
import { isMolliePaymentId, mollieAmount, MollieUnavailable, type MollieGateway } from './mollie.ts';
import { paymentsRepository, type PaymentRow } from './repository.ts';

export const paymentsDisabled = () =>
  new AppError(
    409,
    planErrorCodes.paymentsDisabled,
    'Online betalen staat op dit moment uit. Neem contact met ons op, dan zetten we het abonnement voor je klaar.',
  );
const providerError = () =>
  new AppError(
    502,
    planErrorCodes.paymentProviderError,
    'De betaalprovider is nu niet bereikbaar. Er is niets afgeschreven; probeer het over een paar minuten opnieuw.',
  );
const invoiceNotFound = () =>
  new AppError(404, 'INVOICE_NOT_FOUND', 'Deze factuur bestaat niet of je hebt er geen toegang toe.');
export const paymentNotFound = () =>
  new AppError(
    404,
    planErrorCodes.paymentNotFound,
    'Deze betaling bestaat niet of je hebt er geen toegang toe.',
  );

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const HOUR_MS = 3_600_000;
/** How long the invoice link in the mail works. */
const MAILED_LINK_MS = 30 * 24 * HOUR_MS;

/**
 * Payments for a plan through Mollie (docs/plans.md). Mollie's word is the only truth about a payment:
 * the webhook carries just an id, and we fetch the payment from Mollie to learn its state, so a forged,
 * replayed or out-of-order call cannot make a page paid. The plan is granted once, in the transaction
 * that first sees the payment paid.
 */
export function paymentService(
  deps: Pick<Deps, 'db' | 'config' | 'outbox'> & { plans: PlanGrants; mollie: MollieGateway | null },
) {
  const { db, config, mollie } = deps;
  const access = memorialAccessService(db);
  const repo = paymentsRepository(db);
  const invoices = invoicesRepository(db);
  const links = invoiceLinkSigner(db);
  const invoiceUrl = async (id: string, validMs: number) =>
    `${config.API_URL}/core/invoices/${id}/pdf?${await links.sign(id, new Date(Date.now() + validMs))}`;

  async function present(p: PaymentRow): Promise<Payment> {
    const { rows } = await db.query<{ id: string; number: number; kind: string }>(
      `SELECT id::text AS id, number, kind FROM invoices WHERE payment_id = $1`,
      [p.id],
    );
    const link = async (kind: string) => {
      const inv = rows.find((r) => r.kind === kind);
      return inv
        ? { id: inv.id, number: invoiceNumber(inv.number), url: await invoiceUrl(inv.id, HOUR_MS) }
        : null;
    };
    return {
      id: p.id,
      memorialId: p.memorial_id,
      plan: p.plan,
      amountCents: p.amount_cents,
      status: p.status as PaymentStatus,
      createdAt: iso(p.created_at)!,
      paidAt: iso(p.paid_at),
      invoice: await link('invoice'),
      refundedAt: iso(p.refunded_at),
      creditInvoice: await link('credit'),
    };
  }

  /** What the invoice says was bought: the plan, the page, and for Basis the period. */
  function description(plan: 'basis' | 'premium', memorialName: string, until: Date | null) {
    return plan === 'premium'
      ? `Aandenken Premium, gedenkpagina ${memorialName} (eenmalig, voor altijd)`
      : `Aandenken Basis, gedenkpagina ${memorialName}${until ? ` (tot ${dateNl(until)})` : ''}`;
  }

  /** Takes Mollie's current state of the payment; grants the plan when it is paid the first time. */
  async function sync(row: PaymentRow): Promise<PaymentRow> {
    if (!mollie || !row.mollie_id) return row;
    let remote;
    try {
      remote = await mollie.get(row.mollie_id);
    } catch (err) {
      if (err instanceof MollieUnavailable) throw providerError();
      throw err;
    }
    if (!remote) return row;
    // The payment must be the one we asked for: our id in its metadata and our amount.
    if (
      remote.metadata?.paymentId !== row.id ||
      remote.amount.value !== mollieAmount(row.amount_cents) ||
      remote.amount.currency !== 'EUR'
    )
      return row;
    // Read outside the transaction (one connection on PGlite): the page's name, and the link key loaded.
    const name = row.memorial_id ? ((await repo.memorialName(row.memorial_id)) ?? '') : '';
    await links.sign(row.id, new Date());
    await db.transaction(async (tx) => {
      const current = await repo.lock(tx, row.id);
      if (!current) return;
      // Paid is final: a late 'open' or 'expired' (out of order) never undoes it.
      if (current.status === 'paid' && remote.status !== 'paid') return;
      const paid = remote.status === 'paid';
      const grant = paid && current.applied_at === null && current.memorial_id !== null;
      if (grant) {
        const until = await deps.plans.grant(tx, current.memorial_id!, current.plan);
        const invoice = await invoices.issue(
          tx,
          current.id,
          description(current.plan, name, until).slice(0, 300),
        );
        if (current.buyer_email)
          await deps.outbox.enqueue(
            tx,
            invoiceMail({
              to: current.buyer_email,
              invoice,
              memorialName: name,
              url: await invoiceUrl(invoice.id, MAILED_LINK_MS),
            }),
          );
        await recordAudit(tx, {
          memorialId: current.memorial_id!,
          actor: null,
          action: 'plan.paid',
          targetType: 'payment',
          targetId: current.id,
          details: { plan: current.plan, amountCents: current.amount_cents },
        });
      }
      if (current.status !== remote.status || grant)
        await repo.setStatus(
          tx,
          current.id,
          remote.status,
          paid ? new Date(remote.paidAt ?? Date.now()) : null,
          grant,
        );
    });
    return (await repo.findById(row.id))!;
  }

  return {
    /** Owners and editors start a payment; answers Mollie's checkout address. */
    async create(caller: Caller, input: z.output<typeof paymentCreateSchema>) {
      if (caller.kind !== 'user') throw unauthorized();
      const acc = await access.require(caller, input.memorialId, 'guest');
      if (!roleAtLeast(acc.role, 'editor'))
        throw forbidden('Alleen eigenaren en redacteuren van deze pagina kunnen een abonnement kiezen.');
      if (!mollie) throw paymentsDisabled();
      const state = await deps.plans.policy.stateOf(db, input.memorialId);
      if (state.paidByCompany)
        throw conflict('Deze pagina wordt betaald door de uitvaartonderneming; je hoeft niets te betalen.');
      if (state.plan === 'premium') throw conflict('Deze pagina heeft Premium al, voor altijd.');
      const plan = plans[input.plan];
      const id = await repo.insert(db, {
        memorialId: input.memorialId,
        plan: input.plan,
        amountCents: plan.priceCents,
        createdBy: caller.userId,
        buyerEmail: caller.email ?? null,
        buyerName: input.buyerName,
        buyerAddress: input.buyerAddress,
        buyerPostalCode: input.buyerPostalCode,
        buyerCity: input.buyerCity,
      });
      const name = (await repo.memorialName(input.memorialId)) ?? '';
      let created;
      try {
        created = await mollie.create({
          amountCents: plan.priceCents,
          description: `Aandenken ${plan.title} – gedenkpagina ${name}`.slice(0, 255),
          redirectUrl: `${config.APP_URL}${routes.payment(input.memorialId)}?betaling=${id}`,
          webhookUrl: `${config.API_URL}/core/payments/webhook`,
          metadata: { paymentId: id, memorialId: input.memorialId },
          idempotencyKey: id,
        });
      } catch (err) {
        await repo.markFailedToStart(id);
        if (err instanceof MollieUnavailable) throw providerError();
        throw err;
      }
      await repo.attachMollie(id, created.id, created.checkoutUrl);
      if (!created.checkoutUrl) {
        await repo.markFailedToStart(id);
        throw new AppError(
          502,
          planErrorCodes.paymentProviderError,
          'De betaalprovider gaf geen betaallink terug. Er is niets afgeschreven; probeer het opnieuw.',
        );
      }
      return { paymentId: id, checkoutUrl: created.checkoutUrl };
    },

    /** The payment's state for the result screen; asks Mollie while it is still open. */
    async get(caller: Caller, id: string): Promise<Payment> {
      if (caller.kind !== 'user') throw unauthorized();
      const row = isUuid(id) ? await repo.findById(id) : undefined;
      if (!row?.memorial_id) throw paymentNotFound();
      const acc = await access.resolve(caller, row.memorial_id);
      if (!acc?.role || !roleAtLeast(acc.role, 'editor')) throw paymentNotFound();
      const open = row.status === 'open' || row.status === 'pending' || row.status === 'authorized';
      return present(open ? await sync(row) : row);
    },

    /**
     * The invoice's PDF: with the signed link (mail, management screen) without signing in; signed in as an
     * owner or editor of the page without it.
     */
    async invoicePdf(o: {
      id: string;
      exp?: string;
      sig?: string;
      caller: () => Promise<Caller>;
    }): Promise<{ inv: InvoiceRow; body: Uint8Array; filename: string }> {
      // Without a link, only a signed-in person (401 before anything is looked up).
      const caller = o.sig === undefined ? await o.caller() : null;
      if (caller && caller.kind !== 'user') throw unauthorized();
      const inv = isUuid(o.id) ? await invoices.byId(o.id) : undefined;
      if (!inv) throw invoiceNotFound();
      const signed = o.sig !== undefined ? await links.check(inv.id, o.exp, o.sig) : null;
      if (signed === 'expired')
        throw new AppError(
          403,
          'INVOICE_LINK_EXPIRED',
          'Deze link naar de factuur is verlopen. Download de factuur opnieuw vanuit het beheer van de pagina.',
        );
      if (signed !== 'valid') {
        const who = caller ?? (await o.caller());
        if (who.kind !== 'user') throw unauthorized();
        const acc = inv.memorial_id ? await access.resolve(who, inv.memorial_id) : null;
        if (!acc?.role || !roleAtLeast(acc.role, 'editor')) throw invoiceNotFound();
      }
      const body = await invoicePdf(inv, config);
      return { inv, body, filename: `${invoiceNumber(inv.number)}.pdf` };
    },

    /**
     * The team refunds a paid payment through Mollie, once: a credit invoice (the next number, negative
     * amounts) is issued and mailed, the plan it bought is taken back, and the page's audit log says why.
     */
    async teamRefund(caller: Caller, id: string, input: z.output<typeof teamRefundSchema>) {
      if (caller.kind !== 'user') throw unauthorized();
      if (!(await isTeamMember({ db, config }, caller)))
        throw forbidden('Alleen het team van Aandenken kan een betaling terugstorten.');
      const row = isUuid(id) ? await repo.findById(id) : undefined;
      if (!row) throw paymentNotFound();
      if (row.status !== 'paid' || row.refunded_at !== null || !row.mollie_id)
        throw new AppError(
          409,
          planErrorCodes.paymentNotRefundable,
          'Alleen een betaalde betaling die nog niet is teruggestort kan worden teruggestort.',
        );
      if (!mollie) throw paymentsDisabled();
      let refundId: string;
      try {
        // The payment's id as idempotency key: a retry after a failure here never refunds twice.
        refundId = await mollie.refund(
          row.mollie_id,
          row.amount_cents,
          `Terugbetaling ${row.plan}`,
          `refund-${row.id}`,
        );
      } catch (err) {
        if (err instanceof MollieUnavailable) throw providerError();
        throw err;
      }
      const name = row.memorial_id ? ((await repo.memorialName(row.memorial_id)) ?? '') : '';
      await links.sign(row.id, new Date());
      await db.transaction(async (tx) => {
        const current = await repo.lock(tx, row.id);
        if (!current || current.refunded_at !== null) return;
        await repo.markRefunded(tx, row.id, refundId);
        const credit = await invoices.issue(
          tx,
          row.id,
          `Creditering: ${description(row.plan, name, null)}`.slice(0, 300),
          'credit',
        );
        if (row.memorial_id) {
          await deps.plans.revoke(tx, row.memorial_id, row.plan);
          await recordAudit(tx, {
            memorialId: row.memorial_id,
            actor: caller,
            action: 'plan.refunded',
            targetType: 'payment',
            targetId: row.id,
            details: { plan: row.plan, amountCents: row.amount_cents, reason: input.reason },
          });
        }
        if (row.buyer_email)
          await deps.outbox.enqueue(
            tx,
            invoiceMail({
              to: row.buyer_email,
              invoice: credit,
              memorialName: name,
              url: await invoiceUrl(credit.id, MAILED_LINK_MS),
            }),
          );
      });
      return present((await repo.findById(row.id))!);
    },

    /**
     * Mollie's webhook: only an id. Ids that are not ours are ignored without asking Mollie; ours are
     * fetched from Mollie and applied (idempotent). Answers nothing either way.
     */
    async webhook(mollieId: unknown): Promise<void> {
      if (!isMolliePaymentId(mollieId)) return;
      const row = await repo.findByMollieId(mollieId);
      if (!row) return;
      await sync(row);
    },
  };
}
export type PaymentService = ReturnType<typeof paymentService>;
