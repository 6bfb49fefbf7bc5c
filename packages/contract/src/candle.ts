import * as z from 'zod/mini';
import { pageOf, pageRequestShape, uuidField } from './memorial.ts';
import { cleanPlainText } from './memory.ts';

/** Candles and flowers: anyone who may see a memorial may light one (limited per client address). */
export const candleKinds = ['candle', 'flower'] as const;
export type CandleKind = (typeof candleKinds)[number];
export const candleKindLabels: Record<CandleKind, string> = { candle: 'Kaarsje', flower: 'Bloem' };

export const CANDLE_NAME_MAX = 80;
export const CANDLE_MESSAGE_MAX = 280;
/** Per client address, across memorials. */
export const CANDLE_RATE_LIMIT = { max: 10, windowMinutes: 10 } as const;

export const candleErrorCodes = { candleNotFound: 'CANDLE_NOT_FOUND' } as const;

/** POST /candles/{memorialId}. */
export const candleCreateSchema = z.object({
  name: z
    .string({ error: 'Naam is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Naam is verplicht'),
      z.maxLength(CANDLE_NAME_MAX, `Naam mag maximaal ${CANDLE_NAME_MAX} tekens zijn`),
    ),
  message: z.nullish(
    z.pipe(
      z.pipe(
        z.pipe(z.string({ error: 'Bericht is ongeldig' }), z.transform(cleanPlainText)),
        z
          .string()
          .check(
            z.maxLength(CANDLE_MESSAGE_MAX, `Je bericht mag maximaal ${CANDLE_MESSAGE_MAX} tekens zijn`),
          ),
      ),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  ),
  kind: z._default(z.enum(candleKinds, { error: "Kies 'candle' (kaarsje) of 'flower' (bloem)" }), 'candle'),
});
export type CandleCreate = z.input<typeof candleCreateSchema>;

export const candleSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  kind: z.enum(candleKinds),
  name: z.string(),
  message: z.nullable(z.string()).check(z.describe('Platte tekst')),
  createdAt: z.iso.datetime(),
});
export type Candle = z.infer<typeof candleSchema>;

/** POST /candles/query: newest first, with the memorial's totals per kind. */
export const candleQuerySchema = z.object({
  memorialId: uuidField('Gedenkpagina'),
  ...pageRequestShape,
});
export type CandleQuery = z.input<typeof candleQuerySchema>;

export const candleCountsSchema = z.object({
  candle: z.int(),
  flower: z.int(),
  total: z.int(),
});
export const candlePageSchema = z.extend(pageOf(candleSchema), { counts: candleCountsSchema });
export const candleDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });
