import {
  candleErrorCodes,
  type Candle,
  type candleCreateSchema,
  type candleQuerySchema,
} from '@aandenken/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { AppError } from '../../lib/errors.ts';
import type { IdempotencyClaim } from '../../lib/idempotency.ts';
import { recordAudit } from '../../shared/audit.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { clampLimit, isUuid, toPage } from '../../shared/pagination.ts';
import { timeIdCursor } from '../../shared/cursor.ts';
import { memorialArchived } from '../../shared/errors.ts';
import { candleRepository, toCandle } from './repository.ts';
import { FORMER_MEMBER_NAME } from '@aandenken/contract';
import type { ForgetPerson } from '../../shared/forget-person.ts';

const candleNotFound = () =>
  new AppError(
    404,
    candleErrorCodes.candleNotFound,
    'Dit kaarsje bestaat niet of je hebt er geen toegang toe.',
  );

export function candleService({ db }: { db: Db }) {
  const access = memorialAccessService(db);
  const repo = candleRepository(db);

  async function requireVisible(caller: Caller, id: string) {
    const row = isUuid(id) ? await repo.findById(id) : undefined;
    if (!row) throw candleNotFound();
    const acc = await access.resolve(caller, row.memorial_id);
    if (!acc?.role) throw candleNotFound();
    return { row, acc };
  }

  return {
    /** Anyone who may see the memorial (a visitor of a public page too) lights a candle or lays a flower. */
    async light(
      caller: Caller,
      memorialId: string,
      input: z.output<typeof candleCreateSchema>,
      idempotency?: IdempotencyClaim,
    ): Promise<Candle> {
      const acc = await access.require(caller, memorialId, 'visitor');
      if (acc.status === 'archived') throw memorialArchived();
      const candle = {
        memorialId,
        kind: input.kind,
        name: input.name,
        message: input.message ?? null,
        userId: caller.kind === 'user' ? caller.userId : null,
        guestTokenId: caller.kind === 'guest' ? caller.tokenId : null,
      };
      if (!idempotency) return toCandle(await repo.insert(candle));
      // The answer is kept with the candle: a repeat of a request whose answer was lost gets this candle
      // back instead of lighting a second one (docs/decisions/012-idempotency-keys.md).
      return db.transaction(async (tx) => {
        const lit = toCandle(await candleRepository(tx).insert(candle));
        await idempotency.record(tx, 201, lit);
        return lit;
      });
    },

    async get(caller: Caller, id: string): Promise<Candle> {
      return toCandle((await requireVisible(caller, id)).row);
    },

    /** Newest first, with the memorial's totals per kind: three statements per page. */
    async query(caller: Caller, input: z.output<typeof candleQuerySchema>) {
      await access.require(caller, input.memorialId, 'visitor');
      const limit = clampLimit(input.limit);
      const after = timeIdCursor(input.cursor);
      const rows = await repo.list(input.memorialId, { after, limit: limit + 1 });
      const counts = await repo.counts(input.memorialId);
      return { ...toPage(rows, limit, toCandle, (r) => [r.cursor_ts, r.id]), counts };
    },

    /** Editors and owners remove a candle (an unkind message on a public page). */
    async remove(caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
      const { row } = await requireVisible(caller, id);
      await access.require(caller, row.memorial_id, 'editor');
      await db.transaction(async (tx) => {
        await repo.delete(tx, id);
        await recordAudit(tx, {
          memorialId: row.memorial_id,
          actor: caller,
          action: 'candle.removed',
          targetType: 'candle',
          targetId: id,
          details: { kind: row.kind },
        });
      });
      return { id, deleted: true };
    },
  };
}

/** The candles a deleted account lit stay, from "een voormalig lid". */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await candleRepository(tx).renameLitBy(person.userId, FORMER_MEMBER_NAME);
};
