import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiPaths, apiPrefix, errorCodes } from '@aandenken/contract';

/**
 * The memorial page's candle form sent before the page's script runs (or without one): a plain browser POST
 * to the page's own address. It is handed to the API's candle route in-process (`inject`, as the visitor, from
 * the visitor's address), so the validation, the rate limit, the access rules and the idempotency are the
 * route's own. The field names and ids here are those the page renders (candles-section.tsx).
 */

/** The hidden field that says which of the page's forms was sent. */
export const CANDLE_FORM = 'kaarsje';
/** Where a lit candle or a laid flower sends the visitor: the page shows the matching confirmation (`:target`). */
export const CANDLE_LIT = { candle: 'kaarsje-brandt', flower: 'bloem-ligt' } as const;

/** A double tap sends the form twice: the same words from the same address within this window light one candle. */
const REPEAT_WINDOW_MS = 60_000;

export interface CandleFormValues {
  kind: 'candle' | 'flower';
  name: string;
  message: string;
}

export type CandleFormResult =
  | { ok: true; kind: CandleFormValues['kind'] }
  | { ok: false; status: number; message: string; fields: Record<string, string>; values: CandleFormValues };

/** Lights the candle the form describes, as an anonymous visitor of the page (the API decides who may). */
export async function lightFromForm(
  app: FastifyInstance,
  req: FastifyRequest,
  memorialId: string,
  form: Record<string, unknown>,
): Promise<CandleFormResult> {
  const text = (name: string) => (typeof form[name] === 'string' ? form[name] : '');
  const values: CandleFormValues = {
    kind: text('kind') === 'flower' ? 'flower' : 'candle',
    name: text('name'),
    message: text('message'),
  };
  // No script, so no key of the browser's own: one made of what was sent, by whom and when.
  const key = createHash('sha256')
    .update(
      JSON.stringify([req.ip, memorialId.toLowerCase(), values, Math.floor(Date.now() / REPEAT_WINDOW_MS)]),
    )
    .digest('base64url');
  const res = await app.inject({
    method: 'POST',
    url: `${apiPrefix}${apiPaths.candleCreate(memorialId)}`,
    headers: { 'idempotency-key': `kaarsjesformulier-${key}` },
    payload: { kind: values.kind, name: values.name, message: values.message || null },
    remoteAddress: req.ip,
  });
  if (res.statusCode === 201) return { ok: true, kind: values.kind };
  const body = res.json<{ code?: string; message?: string; fields?: Record<string, string> }>();
  // The first of a double tap is still lighting it: the same candle.
  if (res.statusCode === 409 && body.code === errorCodes.idempotencyInProgress)
    return { ok: true, kind: values.kind };
  return {
    ok: false,
    status: res.statusCode,
    message: body.message ?? 'Er ging iets mis. Probeer het opnieuw.',
    fields: body.fields ?? {},
    values,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The rendered page with the refused form as it was sent: what was typed back in its fields, the reason at
 * the form, and the focus on the name field (the browser scrolls it into view; a screen reader reads the
 * reason with it). React adopts all of it when the page's script arrives.
 */
export function withCandleFormError(html: string, r: Extract<CandleFormResult, { ok: false }>): string {
  const invalid = (field: string) =>
    r.fields[field] ? ' aria-invalid="true" aria-errormessage="candle-form-error"' : '';
  return html
    .replace(/<input id="candle-name"[^>]*>/, (tag) =>
      tag
        .replace(/ (value|aria-invalid)="[^"]*"/g, '')
        .replace(
          /^<input /,
          `<input value="${escapeHtml(r.values.name)}" autofocus=""${invalid('name')} aria-describedby="candle-form-error" `,
        ),
    )
    .replace(
      /(<textarea id="candle-message"[^>]*>)[^<]*(<\/textarea>)/,
      (_all, open: string, close: string) =>
        `${open.replace(/ aria-invalid="[^"]*"/, '').replace(/^<textarea /, `<textarea${invalid('message')} `)}${escapeHtml(r.values.message)}${close}`,
    )
    .replace(/<input type="radio"[^>]*value="(candle|flower)"[^>]*>/g, (tag, value: string) => {
      const plain = tag.replace(/ checked=""/, '');
      return value === r.values.kind ? plain.replace(/^<input /, '<input checked="" ') : plain;
    })
    .replace(
      /(<div id="candle-form-error"[^>]*>)(<\/div>)/,
      (_all, open: string, close: string) =>
        `${open}<p>${escapeHtml(r.message)}${Object.values(r.fields)
          .filter((m) => m !== r.message)
          .map((m) => ` ${escapeHtml(m)}`)
          .join('')}</p>${close}`,
    );
}
