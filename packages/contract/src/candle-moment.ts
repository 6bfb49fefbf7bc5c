import * as z from 'zod/mini';
import { candleSchema } from './candle.ts';

/**
 * Remembrance (docs/funeral-day.md, 'Samen herdenken'): the Dutch remembrance days, the page's own
 * days and the kaarsjesmoment: an hour the family chooses in which everyone on the page sees the candles
 * lit in that hour appear live, with how many are there together.
 */
export const CANDLE_MOMENT_DEFAULT_MINUTES = 60;
export const CANDLE_MOMENT_MIN_MINUTES = 15;
export const CANDLE_MOMENT_MAX_MINUTES = 240;
export const CANDLE_MOMENT_TITLE_MAX = 120;
/** Moments per memorial that have not ended yet. */
export const CANDLE_MOMENTS_MAX = 10;
/** Wereldlichtjesdag: candles at 19:00 on the second Sunday of December, for children who died. */
export const WERELDLICHTJESDAG_TIME = '19:00';
/** Below this age at death a page is a child's page: it is shown Wereldlichtjesdag. */
export const CHILD_AGE_LIMIT = 18;

export const candleMomentErrorCodes = {
  momentNotFound: 'CANDLE_MOMENT_NOT_FOUND',
  momentNotLive: 'CANDLE_MOMENT_NOT_LIVE',
  momentInPast: 'CANDLE_MOMENT_IN_PAST',
  tooManyMoments: 'TOO_MANY_CANDLE_MOMENTS',
} as const;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

/** POST /memorial/{id}/candle-moments and PUT …/{momentId}: the whole moment. Times in Europe/Amsterdam. */
export const candleMomentInputSchema = z.object({
  date: z.string({ error: 'Datum is verplicht' }).check(
    z.regex(isoDate, 'Datum moet de vorm JJJJ-MM-DD hebben'),
    z.refine(isRealDate, 'Datum bestaat niet'),
    z.refine((s) => s >= '2000-01-01' && s <= '2200-12-31', 'Datum is ongeldig'),
  ),
  startTime: z
    .string({ error: 'Begintijd is verplicht' })
    .check(z.regex(hhmm, 'Begintijd moet de vorm UU:MM hebben')),
  durationMinutes: z._default(
    z
      .int({ error: 'Duur moet een heel aantal minuten zijn' })
      .check(
        z.minimum(CANDLE_MOMENT_MIN_MINUTES, `Duur is minimaal ${CANDLE_MOMENT_MIN_MINUTES} minuten`),
        z.maximum(CANDLE_MOMENT_MAX_MINUTES, `Duur is maximaal ${CANDLE_MOMENT_MAX_MINUTES} minuten`),
      ),
    CANDLE_MOMENT_DEFAULT_MINUTES,
  ),
  title: z.nullish(
    z.pipe(
      z
        .string({ error: 'Aanleiding is ongeldig' })
        .check(
          z.trim(),
          z.maxLength(
            CANDLE_MOMENT_TITLE_MAX,
            `Aanleiding mag maximaal ${CANDLE_MOMENT_TITLE_MAX} tekens zijn`,
          ),
        ),
      z.transform((s: string) => (s === '' ? null : s)),
    ),
  ),
});
export type CandleMomentInput = z.input<typeof candleMomentInputSchema>;

export const candleMomentParamsSchema = z.object({
  id: z.string().check(z.maxLength(100), z.describe('UUID van de gedenkpagina')),
  momentId: z.string().check(z.maxLength(100), z.describe('UUID van het kaarsjesmoment')),
});

export const candleMomentSchema = z.object({
  id: z.uuid(),
  memorialId: z.uuid(),
  date: z.string(),
  startTime: z.string(),
  durationMinutes: z.int(),
  title: z.nullable(z.string()),
  /** Start and end as instants (Europe/Amsterdam time). */
  startsAt: z.iso.datetime({ offset: true }),
  endsAt: z.iso.datetime({ offset: true }),
});
export type CandleMoment = z.infer<typeof candleMomentSchema>;
export const candleMomentDeletedSchema = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const remembranceDayKinds = ['allerzielen', 'wereldlichtjesdag', 'verjaardag', 'sterfdag'] as const;
export type RemembranceDayKind = (typeof remembranceDayKinds)[number];
export const remembranceDayLabels: Record<RemembranceDayKind, string> = {
  allerzielen: 'Allerzielen',
  wereldlichtjesdag: 'Wereldlichtjesdag',
  verjaardag: 'Verjaardag',
  sterfdag: 'Sterfdag',
};

export const remembranceDaySchema = z.object({
  kind: z.enum(remembranceDayKinds),
  /** The next (or today's) date, `YYYY-MM-DD`, Europe/Amsterdam. */
  date: z.string(),
  /** 'HH:MM' when the day has a moment of its own (Wereldlichtjesdag 19:00), else null. */
  time: z.nullable(z.string()),
  /** For the page's own days: the how-manieth (the 80th birthday, the 3rd year since). */
  years: z.nullable(z.int()),
});
export type RemembranceDay = z.infer<typeof remembranceDaySchema>;

/** GET /memorial/{id}/candle-moments: the moments that have not ended (as of today) and the next days. */
export const remembranceSchema = z.object({
  moments: z.array(candleMomentSchema),
  days: z.array(remembranceDaySchema),
});
export type Remembrance = z.infer<typeof remembranceSchema>;

/**
 * GET /memorial/{id}/candle-moments/live: server-sent events during a moment. `state` first (the moment,
 * the candles lit in it so far, newest first, and how many are there), then `candle` for each candle lit,
 * `together` when the count changes and `ended` when the moment is over (the stream closes).
 */
export const liveStateSchema = z.object({
  moment: candleMomentSchema,
  candles: z.array(candleSchema),
  together: z.int(),
});
export type LiveState = z.infer<typeof liveStateSchema>;
export const liveTogetherSchema = z.object({ together: z.int() });
