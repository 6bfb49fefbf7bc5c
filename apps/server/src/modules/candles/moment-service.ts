import {
  CANDLE_MOMENTS_MAX,
  candleMomentErrorCodes,
  type CandleMoment,
  type candleMomentInputSchema,
  type Remembrance,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { isUuid } from '../../shared/pagination.ts';
import { amsterdamDate, amsterdamInstant, amsterdamIso } from '../../shared/amsterdam-time.ts';
import { remembranceDays } from './moment-days.ts';
import { candleMomentRepository, type MomentFields, type MomentRow } from './moment-repository.ts';
import { lockMemorial } from '../../shared/memorial-row.ts';

const momentNotFound = () =>
  new AppError(404, candleMomentErrorCodes.momentNotFound, 'Dit kaarsjesmoment bestaat niet (meer).');
export const momentNotLive = () =>
  new AppError(409, candleMomentErrorCodes.momentNotLive, 'Er is nu geen kaarsjesmoment op deze pagina.');

const iso = (d: Date | string) => new Date(d).toISOString();

export function toMoment(r: MomentRow): CandleMoment {
  return {
    id: r.id,
    memorialId: r.memorial_id,
    date: r.moment_date,
    startTime: r.starts_at,
    durationMinutes: r.duration_minutes,
    title: r.title,
    startsAt: amsterdamIso(r.moment_date, r.starts_at),
    endsAt: iso(r.ends_at_instant),
  };
}

function fields(input: z.output<typeof candleMomentInputSchema>): MomentFields {
  const startsAt = amsterdamInstant(input.date, input.startTime);
  return {
    date: input.date,
    startTime: input.startTime,
    durationMinutes: input.durationMinutes,
    title: input.title ?? null,
    startsAt,
    endsAt: new Date(startsAt.getTime() + input.durationMinutes * 60_000),
  };
}

/** Remembrance days and the kaarsjesmoment (docs/funeral-day.md, 'Samen herdenken'). */
export function candleMomentService(deps: Pick<Deps, 'db' | 'clock'>) {
  const { db } = deps;
  const now = () => deps.clock.now();
  const access = memorialAccessService(db);
  const repo = candleMomentRepository(db);

  async function requireManager(caller: Caller, memorialId: string) {
    const acc = await access.require(caller, memorialId, 'editor');
    if (acc.status === 'archived') throw memorialArchived();
  }

  /** A moment must still be to come (or on): one that has ended cannot be planned or moved there. */
  function checkFuture(f: MomentFields) {
    if (f.endsAt.getTime() <= now().getTime())
      throw new AppError(400, candleMomentErrorCodes.momentInPast, 'Dit moment ligt in het verleden.', {
        date: 'Kies een datum en tijd die nog komen',
      });
  }

  return {
    /**
     * Everyone who may see the memorial: the moments that have not ended before today (Amsterdam) and
     * the next remembrance days. The same all day long, so one cached read per day serves a public page.
     */
    async remembrance(caller: Caller, memorialId: string): Promise<Remembrance> {
      await access.require(caller, memorialId, 'visitor');
      const today = amsterdamDate(now());
      const rows = await repo.upcoming(memorialId, amsterdamInstant(today, '00:00'));
      return {
        moments: rows.map(toMoment),
        days: remembranceDays(today, await repo.lifeDates(memorialId)),
      };
    },

    async create(caller: Caller, memorialId: string, input: z.output<typeof candleMomentInputSchema>) {
      await requireManager(caller, memorialId);
      const f = fields(input);
      checkFuture(f);
      return db.transaction(async (tx) => {
        await lockMemorial(tx, memorialId);
        const r = candleMomentRepository(tx);
        if ((await r.countUpcoming(memorialId, now(), null)) >= CANDLE_MOMENTS_MAX)
          throw new AppError(
            409,
            candleMomentErrorCodes.tooManyMoments,
            `Er kunnen maximaal ${CANDLE_MOMENTS_MAX} kaarsjesmomenten tegelijk gepland staan.`,
          );
        const row = await r.insert(memorialId, caller.kind === 'user' ? caller.userId : null, f);
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'candle_moment.created',
          targetType: 'candle_moment',
          targetId: row.id,
          details: { date: row.moment_date, startTime: row.starts_at },
        });
        return toMoment(row);
      });
    },

    async update(
      caller: Caller,
      memorialId: string,
      momentId: string,
      input: z.output<typeof candleMomentInputSchema>,
    ) {
      await requireManager(caller, memorialId);
      if (!isUuid(momentId)) throw momentNotFound();
      const f = fields(input);
      checkFuture(f);
      return db.transaction(async (tx) => {
        const row = await candleMomentRepository(tx).update(memorialId, momentId, f);
        if (!row) throw momentNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'candle_moment.updated',
          targetType: 'candle_moment',
          targetId: row.id,
          details: { date: row.moment_date, startTime: row.starts_at },
        });
        return toMoment(row);
      });
    },

    /** Cancelling a moment that is on ends its live streams at their next heartbeat. */
    async remove(caller: Caller, memorialId: string, momentId: string) {
      await requireManager(caller, memorialId);
      if (!isUuid(momentId)) throw momentNotFound();
      await db.transaction(async (tx) => {
        if (!(await candleMomentRepository(tx).delete(memorialId, momentId))) throw momentNotFound();
        await recordAudit(tx, {
          memorialId,
          actor: caller,
          action: 'candle_moment.deleted',
          targetType: 'candle_moment',
          targetId: momentId,
          details: {},
        });
      });
      return { id: momentId, deleted: true as const };
    },

    /** Whether the caller may still watch the memorial's live moment (404 when not). */
    async watch(caller: Caller, memorialId: string): Promise<void> {
      await access.require(caller, memorialId, 'visitor');
    },

    /** The moment on now, for a caller who may see the memorial; 409 when none is on. */
    async live(caller: Caller, memorialId: string): Promise<CandleMoment> {
      await access.require(caller, memorialId, 'visitor');
      const row = await repo.current(memorialId, now());
      if (!row) throw momentNotLive();
      return toMoment(row);
    },
  };
}
