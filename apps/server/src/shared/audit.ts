import type { Queryable } from '../db/client.ts';
import type { Caller } from '../lib/auth.ts';

export interface AuditEntry {
  memorialId: string;
  /** Who did it; null for the system (a scheduled job). */
  actor: Caller | null;
  /** `<subject>.<verb>`, lower case, e.g. `memory.approved`, `candle.lit`, `media.deleted`. */
  action: string;
  targetType?: string;
  targetId?: string;
  /** Small facts about the change (field names, old and new status). Never secrets or full texts. */
  details?: Record<string, unknown>;
}

/**
 * Records one audit entry. Call it with the transaction that makes the change, so the entry exists
 * exactly when the change does: `await recordAudit(tx, { memorialId, actor: caller, action: 'memory.approved', ... })`.
 */
export async function recordAudit(q: Queryable, e: AuditEntry): Promise<void> {
  const actor = e.actor ?? null;
  const kind = actor ? actor.kind : 'system';
  const userId = actor?.kind === 'user' ? actor.userId : null;
  const name = actor?.kind === 'user' ? actor.name : actor?.kind === 'guest' ? actor.guestName : null;
  await q.query(
    `INSERT INTO memorial_audit_log (memorial_id, actor_kind, actor_user_id, actor_name, action, target_type, target_id, details)
     VALUES ($1, $2, $3, COALESCE($4, (SELECT name FROM users WHERE id = $3)), $5, $6, $7, $8)`,
    [
      e.memorialId,
      kind,
      userId,
      name,
      e.action,
      e.targetType ?? null,
      e.targetId ?? null,
      JSON.stringify(e.details ?? {}),
    ],
  );
}

/** The audit log as other modules use it: `audit.record(tx, {...})`. */
export const audit = { record: recordAudit };
