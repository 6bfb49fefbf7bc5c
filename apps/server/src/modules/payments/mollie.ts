import type { PaymentStatus } from '@aandenken/contract';

/** The part of a Mollie payment we use (Mollie's v2 Payments API). */
export interface MolliePayment {
  id: string;
  status: PaymentStatus;
  amount: { value: string; currency: string };
  metadata: Record<string, unknown> | null;
  checkoutUrl: string | null;
  paidAt: string | null;
}

export interface MollieCreate {
  amountCents: number;
  description: string;
  redirectUrl: string;
  webhookUrl: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/** The calls we make to Mollie. `get` answers null for a payment Mollie does not know (404). */
export interface MollieGateway {
  create(p: MollieCreate): Promise<MolliePayment>;
  get(id: string): Promise<MolliePayment | null>;
  /** Refunds (part of) a paid payment; answers Mollie's refund id. */
  refund(
    paymentId: string,
    amountCents: number,
    description: string,
    idempotencyKey: string,
  ): Promise<string>;
}

export class MollieUnavailable extends Error {}

/** '50.00' from 5000 cents, the way Mollie writes amounts. */
export const mollieAmount = (cents: number) => (cents / 100).toFixed(2);

/** Mollie's id format for payments. */
export const isMolliePaymentId = (v: unknown): v is string =>
  typeof v === 'string' && /^tr_[A-Za-z0-9]{1,64}$/.test(v);

type Raw = {
  id: string;
  status: PaymentStatus;
  amount: { value: string; currency: string };
  metadata?: unknown;
  paidAt?: string | null;
  _links?: { checkout?: { href?: string } };
};
const fromRaw = (p: Raw): MolliePayment => ({
  id: p.id,
  status: p.status,
  amount: p.amount,
  metadata: p.metadata && typeof p.metadata === 'object' ? (p.metadata as Record<string, unknown>) : null,
  checkoutUrl: p._links?.checkout?.href ?? null,
  paidAt: p.paidAt ?? null,
});

/**
 * Mollie through `@mollie/api-client` (loaded when the first payment is made). The library talks HTTPS only
 * (it pins an https.Agent with its own CA bundle), so an `http://` MOLLIE_API_URL — allowed on loopback
 * only, for the tests' stand-in (test/support/mollie-standin.ts) — is spoken to with fetch, the same v2
 * calls (decision 013).
 */
export function mollieGateway({ apiKey, apiUrl }: { apiKey: string; apiUrl: string }): MollieGateway {
  const root = apiUrl.replace(/\/+$/, '');
  if (root.startsWith('http://')) return fetchGateway(apiKey, root);
  let client: Promise<import('@mollie/api-client').MollieClient> | undefined;
  const mollie = () =>
    (client ??= import('@mollie/api-client').then(({ createMollieClient }) =>
      createMollieClient({ apiKey, apiEndpoint: `${root}/v2/` }),
    ));
  const wrap = <T>(p: Promise<T>) =>
    p.catch((err: unknown) => {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404) return null;
      throw new MollieUnavailable(err instanceof Error ? err.message : String(err));
    });
  const adapt = (p: {
    id: string;
    status: string;
    amount: { value: string; currency: string };
    metadata: unknown;
    paidAt?: string | null;
    getCheckoutUrl(): string | null;
  }): MolliePayment => ({
    id: p.id,
    status: p.status as PaymentStatus,
    amount: p.amount,
    metadata: p.metadata && typeof p.metadata === 'object' ? (p.metadata as Record<string, unknown>) : null,
    checkoutUrl: p.getCheckoutUrl(),
    paidAt: p.paidAt ?? null,
  });
  return {
    async create(c) {
      const created = await wrap(
        mollie().then((m) =>
          m.payments.create({
            amount: { value: mollieAmount(c.amountCents), currency: 'EUR' },
            description: c.description,
            redirectUrl: c.redirectUrl,
            webhookUrl: c.webhookUrl,
            metadata: c.metadata,
            idempotencyKey: c.idempotencyKey,
          }),
        ),
      );
      if (!created) throw new MollieUnavailable('Mollie answered 404 on create');
      return adapt(created);
    },
    async get(id) {
      const p = await wrap(mollie().then((m) => m.payments.get(id)));
      return p ? adapt(p) : null;
    },
    async refund(paymentId, amountCents, description, idempotencyKey) {
      const r = await wrap(
        mollie().then((m) =>
          m.paymentRefunds.create({
            paymentId,
            amount: { value: mollieAmount(amountCents), currency: 'EUR' },
            description,
            idempotencyKey,
          }),
        ),
      );
      if (!r) throw new MollieUnavailable('Mollie answered 404 on refund');
      return r.id;
    },
  };
}

function fetchGateway(apiKey: string, root: string): MollieGateway {
  async function send(path: string, init: RequestInit = {}) {
    let res: Response;
    try {
      res = await fetch(`${root}/v2/${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${apiKey}`,
          accept: 'application/hal+json',
          'content-type': 'application/json',
          ...(init.headers as Record<string, string> | undefined),
        },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new MollieUnavailable(err instanceof Error ? err.message : String(err));
    }
    if (res.status === 404) return null;
    if (!res.ok) throw new MollieUnavailable(`Mollie answered ${res.status}`);
    return (await res.json()) as Raw;
  }
  const call = async (path: string, init: RequestInit = {}) => {
    const raw = await send(path, init);
    return raw ? fromRaw(raw) : null;
  };
  return {
    async create(c) {
      const p = await call('payments', {
        method: 'POST',
        headers: { 'idempotency-key': c.idempotencyKey },
        body: JSON.stringify({
          amount: { value: mollieAmount(c.amountCents), currency: 'EUR' },
          description: c.description,
          redirectUrl: c.redirectUrl,
          webhookUrl: c.webhookUrl,
          metadata: c.metadata,
        }),
      });
      if (!p) throw new MollieUnavailable('Mollie answered 404 on create');
      return p;
    },
    get: (id) => call(`payments/${encodeURIComponent(id)}`),
    async refund(paymentId, amountCents, description, idempotencyKey) {
      const r = await send(`payments/${encodeURIComponent(paymentId)}/refunds`, {
        method: 'POST',
        headers: { 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ amount: { value: mollieAmount(amountCents), currency: 'EUR' }, description }),
      });
      if (!r) throw new MollieUnavailable('Mollie answered 404 on refund');
      return r.id;
    },
  };
}
