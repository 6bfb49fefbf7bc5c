import { FORMER_MEMBER_NAME, type AuditEntry, type auditQuerySchema } from '@aandenken/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { clampLimit, decodeCursor, toPage } from '../../shared/pagination.ts';
import { type AuditRow, auditRepository, forgetActor } from './repository.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  action: r.action,
  actor: { kind: r.actor_kind, userId: r.actor_user_id, name: r.actor_name },
  targetType: r.target_type,
  targetId: r.target_id,
  details: typeof r.details === 'string' ? (JSON.parse(r.details) as Record<string, unknown>) : r.details,
  createdAt: new Date(r.created_at).toISOString(),
});

export function auditService({ db }: { db: Queryable }) {
  const access = memorialAccessService(db);
  const repo = auditRepository(db);
  return {
    /** Owners only; newest first. */
    async list(caller: Caller, memorialId: string, input: z.output<typeof auditQuerySchema>) {
      await access.require(caller, memorialId, 'owner');
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string']);
      if (after && !/^\d{1,19}$/.test(String(after[0])))
        throw badRequest('Ongeldige cursor.', { cursor: 'Ongeldige cursor' });
      const rows = await repo.page(memorialId, limit + 1, after ? String(after[0]) : undefined);
      return toPage(rows, limit, toEntry, (r) => [String(r.seq)]);
    },
  };
}

/** The memorials' logs keep what a deleted account did, from "een voormalig lid", without name or address. */
export const forgetPerson: ForgetPerson = async (tx, person) => {
  await forgetActor(tx, person.userId, person.email, FORMER_MEMBER_NAME);
};
