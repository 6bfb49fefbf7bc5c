import type { MemoryStatus } from '@aandenken/contract';
import type { Queryable } from '../db/client.ts';
import type { MemoryFacts } from './memory-policy.ts';

/**
 * A memory's access facts and its status: what the media feature also reads and writes (a photo added to a
 * memory can send it back to moderation), so it lives below both features.
 */
export function memoryFactsRepository(db: Queryable) {
  return {
    async findFacts(id: string): Promise<(MemoryFacts & { id: string; memorialId: string }) | undefined> {
      const { rows } = await db.query<{
        id: string;
        memorial_id: string;
        status: MemoryStatus;
        members_only: boolean;
        author_user_id: string | null;
        author_guest_token_id: string | null;
        hidden: boolean;
      }>(
        `SELECT id, memorial_id, status, members_only, author_user_id, author_guest_token_id,
                hidden_at IS NOT NULL AS hidden
           FROM memories WHERE id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? {
            id: r.id,
            memorialId: r.memorial_id,
            status: r.status,
            membersOnly: r.members_only,
            authorUserId: r.author_user_id,
            authorGuestTokenId: r.author_guest_token_id,
            hidden: r.hidden,
          }
        : undefined;
    },

    /** Sets a status; publishing stamps the first publication time; a moderator is recorded. */
    async setStatus(
      q: Queryable,
      id: string,
      status: MemoryStatus,
      moderatorUserId: string | null,
    ): Promise<void> {
      await q.query(
        `UPDATE memories
            SET status = $2,
                published_at = CASE WHEN $2 = 'published' THEN coalesce(published_at, now()) ELSE published_at END,
                moderated_by = CASE WHEN $3::text IS NULL THEN moderated_by ELSE $3 END,
                moderated_at = CASE WHEN $3::text IS NULL THEN moderated_at ELSE now() END,
                updated_at = now()
          WHERE id = $1`,
        [id, status, moderatorUserId],
      );
    },
  };
}
