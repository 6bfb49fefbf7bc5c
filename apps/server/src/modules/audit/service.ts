import type { AuditEntry, auditQuerySchema } from '@aandenken/contract';
import type { z } from 'zod';
import type { Queryable } from '../../db/client.ts';
import type { Caller } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { memorialAccessService } from '../../shared/memorial-access.ts';
import { clampLimit, decodeCursor, toPage } from '../../shared/pagination.ts';

interface AuditRow {
  id: string;
  seq: string | number;
  action: string;
  actor_kind: AuditEntry['actor']['kind'];
  actor_user_id: string | null;
  actor_name: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown> | string;
  created_at: Date | string;
  [key: string]: unknown;
}

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
  return {
    /** Owners only; newest first. */
    async list(caller: Caller, memorialId: string, input: z.output<typeof auditQuerySchema>) {
      await access.require(caller, memorialId, 'owner');
      const limit = clampLimit(input.limit);
      const after = decodeCursor(input.cursor, ['string']);
      if (after && !/^\d{1,19}$/.test(String(after[0])))
        throw badRequest('Ongeldige cursor.', { cursor: 'Ongeldige cursor' });
      const params: unknown[] = [memorialId, limit + 1];
      if (after) params.push(after[0]);
      const { rows } = await db.query<AuditRow>(
        `SELECT id, seq, action, actor_kind, actor_user_id, actor_name, target_type, target_id, details, created_at
           FROM memorial_audit_log WHERE memorial_id = $1 ${after ? 'AND seq < $3::bigint' : ''}
          ORDER BY seq DESC LIMIT $2`,
        params,
      );
      return toPage(rows, limit, toEntry, (r) => [String(r.seq)]);
    },
  };
}
