import {
  PARTNERSHIP_PRICE_CENTS,
  plans,
  planErrorCodes,
  roleAtLeast,
  routes,
  type CompanyBilling,
  type CompanyPaymentPurpose,
  type Payment,
  type PaymentStatus,
  type paymentCreateSchema,
  type teamRefundSchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { isUuid } from '../../shared/pagination.ts';
import type { planPolicy } from '../../shared/plans.ts';
import { isTeamMember } from '../../shared/team.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { dateNl } from '../../lib/mail-format.ts';
import { companyInvoiceMail, invoiceMail } from './mails.ts';

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
  type InvoiceLine,
  type InvoiceRow,
} from './invoices.ts';
import { isMolliePaymentId, mollieAmount, MollieUnavailable, type MollieGateway } from './mollie.ts';
import {
  companyBilling,
  forgetBuyerEmail,
  OPEN_STATUSES,
  paymentsRepository,
  type PaymentPlan,
  type PaymentRow,
} from './repository.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

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

const isOpen = (status: string) => (OPEN_STATUSES as readonly string[]).includes(status);
/** How long a request waits for the open payment another request is starting at Mollie. */
const STARTING_WAIT_MS = 15_000;
const paymentUnderway = () =>
  new AppError(
    409,
    planErrorCodes.paymentUnderway,
    'Er loopt al een betaling hiervoor die nog niet is afgerond. Wacht een paar minuten en kijk dan opnieuw.',
  );

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const HOUR_MS = 3_600_000;
/** How long the invoice link in the mail works. */
const MAILED_LINK_MS = 30 * 24 * HOUR_MS;

/** A line in the company's log (company_audit_log, as the companies module writes it), in `q`'s transaction. */
async function companyAudit(
  q: Queryable,
  companyId: string,
  actor: Caller | null,
  action: string,
  details: Record<string, unknown>,
) {
  const userId = actor?.kind === 'user' ? actor.userId : null;
  await companyBilling.audit(q, companyId, userId, action, details);
}

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
    const rows = await invoices.ofPayment(p.id);
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
  function description(plan: PaymentPlan, memorialName: string, until: Date | null) {
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
      // Paid is final: a late 'open' or 'expired' (out of order) never undoes it. A closed payment is not
      // opened again either (Mollie never does so; an older one closed beside a newer open one stays closed).
      if (current.status === 'paid' && remote.status !== 'paid') return;
      if (!isOpen(current.status) && isOpen(remote.status)) return;
      const paid = remote.status === 'paid';
      const forPage = current.plan === 'basis' || current.plan === 'premium';
      const grant = paid && current.applied_at === null && current.memorial_id !== null && forPage;
      const companyGrant = paid && current.applied_at === null && current.company_id !== null && !forPage;
      if (companyGrant) await applyCompanyPayment(tx, current);
      if (grant) {
        const until = await deps.plans.grant(tx, current.memorial_id!, current.plan as 'basis' | 'premium');
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
          grant || companyGrant,
        );
    });
    return (await repo.findById(row.id))!;
  }

  /**
   * A company's payment seen paid (in sync's transaction): the partnership gets a year more (from its end,
   * or from now when it ended or never started), or the pages the payment covers are settled; the invoice
   * (the company as buyer; its pages as lines) is issued and mailed to whoever paid, and the company's log
   * records it.
   */
  async function applyCompanyPayment(tx: Queryable, row: PaymentRow) {
    const companyId = row.company_id!;
    const companyName = (await companyBilling.name(tx, companyId)) ?? '';
    let text: string;
    let lines: InvoiceLine[] | null = null;
    let details: Record<string, unknown>;
    if (row.plan === 'partnership') {
      const until = new Date(await companyBilling.extendPartnership(tx, companyId));
      text = `Aandenken partnerschap ${companyName}, een jaar (tot ${dateNl(until)})`;
      details = { paymentId: row.id, amountCents: row.amount_cents, paidUntil: until.toISOString() };
    } else {
      const pages = await companyBilling.pagesOf(tx, row.id);
      await companyBilling.settlePages(tx, row.id, companyId);
      lines = pages.map((p) => ({
        description: `Premium, gedenkpagina ${p.memorial_name}`.slice(0, 120),
        amountCents: p.amount_cents,
      }));
      const n = pages.length;
      text = `Aandenken Premium voor ${n} ${n === 1 ? 'pagina' : 'pagina’s'} voor families (${companyName})`;
      details = { paymentId: row.id, amountCents: row.amount_cents, pages: n };
    }
    const invoice = await invoices.issue(tx, row.id, text.slice(0, 300), 'invoice', lines);
    if (row.buyer_email)
      await deps.outbox.enqueue(
        tx,
        companyInvoiceMail({
          to: row.buyer_email,
          invoice,
          companyName,
          url: await invoiceUrl(invoice.id, MAILED_LINK_MS),
          name: await repo.payerName(tx, row.id),
        }),
      );
    await companyAudit(
      tx,
      companyId,
      null,
      row.plan === 'partnership' ? 'billing.partnership_paid' : 'billing.pages_paid',
      details,
    );
  }

  /** A user of the (active) company; to anyone else the company does not exist (anonymous: 401). */
  async function requireCompanyUser(caller: Caller, companyId: string) {
    if (caller.kind !== 'user') throw unauthorized();
    const user = isUuid(companyId) ? await companyBilling.user(db, companyId, caller.userId) : undefined;
    if (!user) throw notFound('Dit bedrijf bestaat niet.');
    return { isAdmin: user.is_admin };
  }

  /**
   * Takes back what a refunded company payment bought (in the refund's transaction): the partnership's year
   * comes off its end; the pages it settled are owed again. A credit invoice (the same lines, negative) is
   * issued and mailed; the company's log records the reason.
   */
  async function refundCompanyPayment(tx: Queryable, caller: Caller, row: PaymentRow, reason: string) {
    const companyId = row.company_id!;
    if (row.plan === 'partnership') await companyBilling.shortenPartnership(tx, companyId);
    else await companyBilling.unsettlePages(tx, row.id);
    const original = await companyBilling.invoiceToCredit(tx, row.id, companyId);
    const credit = await invoices.issue(
      tx,
      row.id,
      `Creditering: ${original?.description ?? row.plan}`.slice(0, 300),
      'credit',
      original?.lines ?? null,
    );
    if (row.buyer_email)
      await deps.outbox.enqueue(
        tx,
        companyInvoiceMail({
          to: row.buyer_email,
          invoice: credit,
          companyName: original?.name ?? '',
          url: await invoiceUrl(credit.id, MAILED_LINK_MS),
          name: await repo.payerName(tx, row.id),
        }),
      );
    await companyAudit(tx, companyId, caller, 'billing.refunded', {
      paymentId: row.id,
      purpose: row.plan,
      amountCents: row.amount_cents,
      reason,
    });
  }

  /**
   * The one open payment of a company for a purpose, or of a page for a plan: the open one when Mollie says it
   * still is (its checkout again), else a new row that `insert` makes (null: another request's insert won;
   * the unique indexes of migration 129 hold it). A payment another request is still starting at Mollie is
   * waited for, so every click gets the same checkout; one being paid right now (pending) is 409.
   */
  async function openPayment(
    find: () => Promise<PaymentRow | undefined>,
    insert: () => Promise<string | null>,
  ): Promise<{ reused: PaymentRow } | { created: string }> {
    const deadline = Date.now() + STARTING_WAIT_MS;
    for (;;) {
      const open = await find();
      if (!open) {
        const created = await insert();
        if (created) return { created };
        continue;
      }
      if (open.checkout_url) {
        const now = await sync(open);
        if (now.status === 'open' && now.checkout_url) return { reused: now };
        if (isOpen(now.status)) throw paymentUnderway();
        continue;
      }
      // Not at Mollie yet: another request is asking it, or died doing so.
      if (await repo.abandonUnstarted(open.id)) continue;
      if (Date.now() > deadline) throw paymentUnderway();
      await sleep(100);
    }
  }

  /** The pages the company pays for and has not paid yet, with Premium's price each. */
  async function owedPages(companyId: string) {
    const rows = await companyBilling.owedPages(db, companyId);
    return rows.map((r) => ({
      memorialId: r.memorial_id,
      name: r.name,
      amountCents: plans.premium.priceCents,
    }));
  }

  /** The refund of a payment this request claimed: Mollie first, then the books in one transaction. */
  async function refundClaimed(gateway: MollieGateway, caller: Caller, row: PaymentRow, reason: string) {
    let refundId: string;
    try {
      // The payment's id as idempotency key: a retry after a failure here never refunds twice.
      refundId = await gateway.refund(
        row.mollie_id!,
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
      if (row.company_id && row.plan !== 'basis' && row.plan !== 'premium') {
        await refundCompanyPayment(tx, caller, row, reason);
        return;
      }
      const credit = await invoices.issue(
        tx,
        row.id,
        `Creditering: ${description(row.plan, name, null)}`.slice(0, 300),
        'credit',
      );
      if (row.memorial_id) {
        await deps.plans.revoke(tx, row.memorial_id, row.plan as 'basis' | 'premium');
        await recordAudit(tx, {
          memorialId: row.memorial_id,
          actor: caller,
          action: 'plan.refunded',
          targetType: 'payment',
          targetId: row.id,
          details: { plan: row.plan, amountCents: row.amount_cents, reason },
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
      const buyer = {
        buyerEmail: caller.email ?? null,
        buyerName: input.buyerName,
        buyerAddress: input.buyerAddress,
        buyerPostalCode: input.buyerPostalCode,
        buyerCity: input.buyerCity,
      };
      const got = await openPayment(
        () => repo.findOpen({ memorialId: input.memorialId }, input.plan),
        () =>
          repo.insert(db, {
            memorialId: input.memorialId,
            plan: input.plan,
            amountCents: plan.priceCents,
            createdBy: caller.userId,
            ...buyer,
          }),
      );
      if ('reused' in got) {
        await repo.updateBuyer(got.reused.id, buyer);
        return { paymentId: got.reused.id, checkoutUrl: got.reused.checkout_url! };
      }
      const id = got.created;
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
        if (inv.memorial_id === null) {
          // A company's invoice: for the users of the (active) company that paid.
          if (!(await companyBilling.paidByUsersCompany(db, inv.payment_id, who.userId)))
            throw invoiceNotFound();
        } else {
          const acc = await access.resolve(who, inv.memorial_id);
          if (!acc?.role || !roleAtLeast(acc.role, 'editor')) throw invoiceNotFound();
        }
      }
      const body = await invoicePdf(inv, config);
      return { inv, body, filename: `${invoiceNumber(inv.number)}.pdf` };
    },

    /**
     * The partner portal's 'Betalingen' (every user of the company): the partnership, what is owed for the
     * pages, the payments with their invoices. Open payments are asked at Mollie (the way back from the
     * checkout, or a webhook that is late).
     */
    async companyBilling(caller: Caller, companyId: string): Promise<CompanyBilling> {
      const m = await requireCompanyUser(caller, companyId);
      const open = (await repo.ofCompany(companyId)).filter((p) =>
        ['open', 'pending', 'authorized'].includes(p.status),
      );
      for (const p of open.slice(0, 3))
        await sync(p).catch((err: unknown) => {
          // Mollie unreachable: the list shows what we knew.
          if (!(err instanceof AppError)) throw err;
        });
      const partnership = await companyBilling.partnership(db, companyId);
      const until = partnership?.until ?? null;
      const pages = await owedPages(companyId);
      return {
        paymentsEnabled: mollie !== null,
        canPay: m.isAdmin,
        partnership: {
          priceCents: PARTNERSHIP_PRICE_CENTS,
          paidUntil: iso(until),
          state: until === null ? 'unpaid' : partnership!.expired ? 'expired' : 'paid',
        },
        owed: { pages, totalCents: pages.reduce((sum, p) => sum + p.amountCents, 0) },
        payments: await Promise.all((await repo.ofCompany(companyId)).map(present)),
      };
    },

    /**
     * A company's administrator pays the partnership (a year) or what the company owes for its pages; the
     * company (name, address) is the buyer on the invoice. An open payment for the same thing is offered
     * again instead of a second one, so the same pages are not paid twice.
     */
    async companyPay(caller: Caller, companyId: string, purpose: CompanyPaymentPurpose) {
      const m = await requireCompanyUser(caller, companyId);
      if (caller.kind !== 'user') throw unauthorized();
      if (!m.isAdmin) throw forbidden('Alleen een beheerder van het bedrijf kan betalen.');
      if (!mollie) throw paymentsDisabled();
      const company = (await companyBilling.buyer(db, companyId))!;
      let pages: Awaited<ReturnType<typeof owedPages>> = [];
      let amountCents = PARTNERSHIP_PRICE_CENTS;
      // The payment and the pages it covers, together; null when another open one is there.
      const insert = async () => {
        pages = purpose === 'company_pages' ? await owedPages(companyId) : [];
        if (purpose === 'company_pages' && pages.length === 0)
          throw conflict('Er staat niets open: alle pagina’s van je bedrijf zijn betaald.');
        if (purpose === 'company_pages') amountCents = pages.reduce((n, p) => n + p.amountCents, 0);
        return db.transaction(async (tx) => {
          const id = await repo.insert(tx, {
            memorialId: null,
            companyId,
            plan: purpose,
            amountCents,
            createdBy: caller.userId,
            buyerEmail: caller.email ?? company.email,
            buyerName: company.name,
            buyerAddress: `${company.street_name} ${company.house_number}`.trim(),
            buyerPostalCode: company.postal_code,
            buyerCity: company.city ?? '',
          });
          if (id === null) return null;
          for (const p of pages) await companyBilling.addPage(tx, id, p);
          return id;
        });
      };
      const got = await openPayment(() => repo.findOpen({ companyId }, purpose), insert);
      if ('reused' in got) return { paymentId: got.reused.id, checkoutUrl: got.reused.checkout_url! };
      const id = got.created;
      let created;
      try {
        created = await mollie.create({
          amountCents,
          description: (purpose === 'partnership'
            ? `Aandenken partnerschap ${company.name}`
            : `Aandenken pagina’s voor families ${company.name}`
          ).slice(0, 255),
          redirectUrl: `${config.APP_URL}${routes.partnerPortal}?bedrijf=${companyId}&tab=betalingen&betaling=${id}`,
          webhookUrl: `${config.API_URL}/core/payments/webhook`,
          metadata: { paymentId: id, companyId },
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
      await companyAudit(db, companyId, caller, 'billing.payment_started', {
        paymentId: id,
        purpose,
        amountCents,
      });
      return { paymentId: id, checkoutUrl: created.checkoutUrl };
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
      const notRefundable = () =>
        new AppError(
          409,
          planErrorCodes.paymentNotRefundable,
          'Alleen een betaalde betaling die nog niet is teruggestort kan worden teruggestort.',
        );
      if (row.status !== 'paid' || row.refunded_at !== null || !row.mollie_id) throw notRefundable();
      if (!mollie) throw paymentsDisabled();
      // Claimed before Mollie is asked: of refunds at once (or one after another), only one reaches Mollie.
      const claimed = await repo.claimRefund(row.id);
      if (!claimed) {
        const now = await repo.findById(row.id);
        if (now?.refunded_at === null && now.refund_started_at !== null)
          throw new AppError(
            409,
            planErrorCodes.paymentNotRefundable,
            'Deze betaling wordt op dit moment al teruggestort. Vernieuw de pagina over een minuut.',
          );
        throw notRefundable();
      }
      try {
        await refundClaimed(mollie, caller, claimed, input.reason);
      } catch (err) {
        // Not refunded (Mollie or the database failed): the team may try again; Mollie's idempotency key
        // keeps that retry from refunding twice.
        await repo.releaseRefund(row.id);
        throw err;
      }
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

/** A deleted account's payments keep the buyer for the books, not the address the invoice was mailed to. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  if (person.email !== '') await forgetBuyerEmail(tx, person.userId, person.email);
};
