/**
 * A local stand-in for Mollie (test support): the calls of Mollie's v2 Payments API the app uses
 * (POST /v2/payments, GET /v2/payments/{id}) and a checkout page on which the test chooses the outcome
 * (paid, failed, canceled, expired); the stand-in then calls the webhook as Mollie does (a form with
 * `id`) and sends the browser back to the payment's redirectUrl. Started by the tests themselves.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInStatus = 'open' | 'pending' | 'authorized' | 'paid' | 'failed' | 'canceled' | 'expired';

export interface StandInPayment {
  id: string;
  status: StandInStatus;
  amount: { value: string; currency: string };
  description: string;
  redirectUrl: string;
  webhookUrl: string | null;
  metadata: unknown;
  createdAt: string;
  paidAt: string | null;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function startMollieStandIn(o: { port?: number; apiKey?: string } = {}) {
  const apiKey = o.apiKey ?? 'test_standin';
  const payments = new Map<string, StandInPayment>();
  /** Every request the stand-in got (method and path), for assertions. */
  const requests: { method: string; path: string }[] = [];
  const webhookCalls: { id: string; status: number }[] = [];
  const refunds: { id: string; paymentId: string; amount: { value: string; currency: string } }[] = [];
  let base = '';
  let n = 0;

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/hal+json' });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: http.ServerResponse) =>
    json(res, 404, {
      status: 404,
      title: 'Not Found',
      detail: 'No payment exists with token tr_unknown.',
      _links: { documentation: { href: 'https://docs.mollie.com/errors', type: 'text/html' } },
    });
  const resource = (p: StandInPayment) => ({
    resource: 'payment',
    id: p.id,
    mode: 'test',
    createdAt: p.createdAt,
    amount: p.amount,
    description: p.description,
    method: null,
    metadata: p.metadata,
    status: p.status,
    isCancelable: p.status === 'open',
    ...(p.paidAt ? { paidAt: p.paidAt } : {}),
    profileId: 'pfl_standin',
    sequenceType: 'oneoff',
    redirectUrl: p.redirectUrl,
    webhookUrl: p.webhookUrl,
    _links: {
      self: { href: `${base}/v2/payments/${p.id}`, type: 'application/hal+json' },
      ...(p.status === 'open' ? { checkout: { href: `${base}/checkout/${p.id}`, type: 'text/html' } } : {}),
    },
  });
  const body = (req: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => resolve(data));
    });

  /** Calls the payment's webhook as Mollie does; answers our server's status code. */
  async function callWebhook(id: string, webhookUrl?: string): Promise<number> {
    const url = webhookUrl ?? payments.get(id)?.webhookUrl;
    if (!url) return 0;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ id }).toString(),
    });
    webhookCalls.push({ id, status: res.status });
    return res.status;
  }

  function setStatus(id: string, status: StandInStatus) {
    const p = payments.get(id);
    if (!p) throw new Error(`stand-in: no payment ${id}`);
    p.status = status;
    if (status === 'paid') p.paidAt = new Date().toISOString();
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({ method: req.method ?? '', path: url.pathname });
    try {
      if (url.pathname.startsWith('/v2/')) {
        if (req.headers.authorization !== `Bearer ${apiKey}`)
          return json(res, 401, {
            status: 401,
            title: 'Unauthorized Request',
            detail: 'Missing authentication, or failed to authenticate',
          });
        if (req.method === 'POST' && url.pathname === '/v2/payments') {
          const input = JSON.parse(await body(req)) as Partial<StandInPayment>;
          if (!input.amount?.value || !input.description || !input.redirectUrl)
            return json(res, 422, {
              status: 422,
              title: 'Unprocessable Entity',
              detail: 'The amount, description or redirectUrl is missing',
            });
          const p: StandInPayment = {
            id: `tr_standin${(++n).toString(36)}${Math.random().toString(36).slice(2, 8)}`,
            status: 'open',
            amount: input.amount,
            description: input.description,
            redirectUrl: input.redirectUrl,
            webhookUrl: input.webhookUrl ?? null,
            metadata: input.metadata ?? null,
            createdAt: new Date().toISOString(),
            paidAt: null,
          };
          payments.set(p.id, p);
          return json(res, 201, resource(p));
        }
        const refund = /^\/v2\/payments\/([^/]+)\/refunds$/.exec(url.pathname);
        if (req.method === 'POST' && refund) {
          const p = payments.get(decodeURIComponent(refund[1]!));
          if (!p) return notFound(res);
          const input = JSON.parse(await body(req)) as { amount?: { value: string; currency: string } };
          if (p.status !== 'paid' || !input.amount)
            return json(res, 422, {
              status: 422,
              title: 'Unprocessable Entity',
              detail: 'The payment cannot be refunded',
            });
          const r = {
            resource: 'refund',
            id: `re_standin${(++n).toString(36)}`,
            amount: input.amount,
            status: 'pending',
            paymentId: p.id,
            createdAt: new Date().toISOString(),
          };
          refunds.push(r);
          return json(res, 201, r);
        }
        const m = /^\/v2\/payments\/([^/]+)$/.exec(url.pathname);
        if (req.method === 'GET' && m) {
          const p = payments.get(decodeURIComponent(m[1]!));
          return p ? json(res, 200, resource(p)) : notFound(res);
        }
        return notFound(res);
      }
      const checkout = /^\/checkout\/([^/]+)$/.exec(url.pathname);
      const p = checkout ? payments.get(checkout[1]!) : undefined;
      if (!checkout || !p) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('Niet gevonden');
      }
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!doctype html><html lang="nl"><head><meta charset="utf-8"><title>Mollie (stand-in)</title></head>
<body><main><h1>Test-betaling (Mollie stand-in)</h1><p>${escape(p.description)}: € ${escape(p.amount.value)}</p>
<form method="post">${(['paid', 'failed', 'canceled', 'expired'] as const)
          .map((s) => `<button name="status" value="${s}">${s}</button>`)
          .join(' ')}</form></main></body></html>`);
      }
      if (req.method === 'POST') {
        const status = new URLSearchParams(await body(req)).get('status') as StandInStatus | null;
        if (status && ['paid', 'failed', 'canceled', 'expired'].includes(status)) setStatus(p.id, status);
        await callWebhook(p.id).catch(() => 0);
        res.writeHead(303, { location: p.redirectUrl });
        return res.end();
      }
      res.writeHead(405);
      res.end();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    apiKey,
    payments,
    requests,
    webhookCalls,
    refunds,
    setStatus,
    callWebhook,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type MollieStandIn = Awaited<ReturnType<typeof startMollieStandIn>>;
