import type { AuditEntry } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export interface AuditRow {
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

export function auditRepository(db: Queryable) {
  return {
    /** A page of the memorial's log, newest first; `beforeSeq` continues after a cursor. */
    async page(memorialId: string, limit: number, beforeSeq?: string): Promise<AuditRow[]> {
      const params: unknown[] = [memorialId, limit];
      if (beforeSeq !== undefined) params.push(beforeSeq);
      const { rows } = await db.query<AuditRow>(
        `SELECT id, seq, action, actor_kind, actor_user_id, actor_name, target_type, target_id, details, created_at
           FROM memorial_audit_log WHERE memorial_id = $1 ${beforeSeq !== undefined ? 'AND seq < $3::bigint' : ''}
          ORDER BY seq DESC LIMIT $2`,
        params,
      );
      return rows;
    },
  };
}

/** The log keeps that it happened, not who by name or address. */
export async function forgetActor(q: Queryable, userId: string, email: string, name: string) {
  await q.query('UPDATE memorial_audit_log SET actor_name = $2 WHERE actor_user_id = $1', [userId, name]);
  await q.query(
    `UPDATE memorial_audit_log SET details = details - 'name' - 'email'
      WHERE details->>'userId' = $1 OR lower(details->>'email') = $2`,
    [userId, email],
  );
}
