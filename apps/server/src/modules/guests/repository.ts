import type { Queryable } from '../../db/client.ts';

export type AttemptCounts = {
  minute: number;
  hour: number;
  global: number;
};

/** Ending links: an unused one expires now, a used one's guest token is marked ended (tokens.ts refuses it). */
const endLinks = `UPDATE guest_link_tokens l
    SET expires_at = CASE WHEN l.used_at IS NULL AND l.expires_at > now()
                          THEN GREATEST(l.created_at + interval '1 millisecond', now())
                          ELSE l.expires_at END,
        guest_token_ended_at = CASE WHEN l.guest_token_id IS NOT NULL
                                    THEN coalesce(l.guest_token_ended_at, now()) END
   FROM guest_invites i`;
/** Only links with something left to end. */
const stillOpen = `((l.used_at IS NULL AND l.expires_at > now())
                 OR (l.guest_token_id IS NOT NULL AND l.guest_token_ended_at IS NULL))`;

export function guestRepository(db: Queryable) {
  return {
    /**
     * What a guest token from this page still counts for: the page's code version and status, and whether the
     * token ended (its link was ended, or on an invite-only page it came from the code, not a link).
     */
    async tokenStanding(memorialId: string, tokenId: string) {
      const { rows } = await db.query<{ access_code_version: number; status: string; ended: boolean }>(
        `SELECT m.access_code_version, m.status,
                EXISTS (SELECT 1 FROM guest_link_tokens l
                         WHERE l.guest_token_id = $2 AND l.guest_token_ended_at IS NOT NULL)
                OR CASE WHEN m.invite_only
                        THEN NOT EXISTS (SELECT 1 FROM guest_link_tokens l WHERE l.guest_token_id = $2)
                        ELSE false END AS ended
           FROM memorials m WHERE m.id = $1`,
        [memorialId, tokenId],
      );
      return rows[0];
    },

    async memorialExists(memorialId: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM memorials WHERE id = $1', [memorialId]);
      return rows.length === 1;
    },

    /** What the mail with the access code needs of the memorial. */
    async memorialForAccessMail(memorialId: string) {
      const { rows } = await db.query<{
        first_name: string;
        last_name: string;
        access_code_encrypted: string;
        invite_only: boolean;
      }>('SELECT first_name, last_name, access_code_encrypted, invite_only FROM memorials WHERE id = $1', [
        memorialId,
      ]);
      return rows[0];
    },

    /** Marks a proof of work used; false when it was used before (a replay). */
    async useProofOfWork(signature: string, expiresAt: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO access_code_pow_used (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [signature, expiresAt],
      );
      return rowCount === 1;
    },

    async forgetUsedProofsOfWork() {
      await db.query('DELETE FROM access_code_pow_used WHERE expires_at < now()');
    },

    /** Records an attempt before it is judged, so concurrent guesses from one address see each other. */
    async startAttempt(clientHash: string): Promise<number> {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO access_code_attempts (client_hash, outcome) VALUES ($1, 'pending') RETURNING id`,
        [clientHash],
      );
      return Number(rows[0]!.id);
    },

    /** Failures (and undecided attempts) other than `attemptId`: this address per minute and hour, all addresses per hour (capped). */
    async countFailures(clientHash: string, attemptId: number, globalCap: number): Promise<AttemptCounts> {
      const { rows } = await db.query<AttemptCounts>(
        `SELECT count(*) FILTER (WHERE created_at > now() - interval '1 minute')::int AS minute,
                count(*)::int AS hour,
                (SELECT count(*)::int FROM (
                   SELECT 1 FROM access_code_attempts
                    WHERE outcome IN ('failed', 'pending') AND created_at > now() - interval '1 hour' AND id <> $2
                    LIMIT $3) g) AS global
           FROM access_code_attempts
          WHERE client_hash = $1 AND outcome IN ('failed', 'pending')
            AND created_at > now() - interval '1 hour' AND id <> $2`,
        [clientHash, attemptId, globalCap],
      );
      return rows[0]!;
    },

    async finishAttempt(
      attemptId: number,
      outcome: 'failed' | 'succeeded' | 'limited' | 'challenged',
      memorialId: string | null = null,
    ) {
      await db.query('UPDATE access_code_attempts SET outcome = $2, memorial_id = $3 WHERE id = $1', [
        attemptId,
        outcome,
        memorialId,
      ]);
    },

    async pruneAttempts() {
      await db.query(`DELETE FROM access_code_attempts WHERE created_at < now() - interval '1 day'`);
    },

    /** The memorial this code opens: published and not invite-only; with `memorialId`, only that one. */
    async findOpenableByCodeHash(codeHash: string, memorialId?: string) {
      const { rows } = await db.query<{ id: string; access_code_version: number }>(
        `SELECT id, access_code_version FROM memorials
          WHERE access_code_hash = $1 AND status = 'active' AND NOT invite_only AND ($2::uuid IS NULL OR id = $2)`,
        [codeHash, memorialId ?? null],
      );
      return rows[0];
    },

    /**
     * Takes one of the memorial's failure slots before the code is checked (so simultaneous guesses cannot
     * pass the limit): false while the memorial is locked or its 15-minute window is full, and for an id
     * that is no memorial.
     */
    async reserveMemorialSlot(memorialId: string, perWindow: number): Promise<boolean> {
      await db.query(
        `INSERT INTO memorial_code_guards (memorial_id) SELECT id FROM memorials WHERE id = $1 ON CONFLICT DO NOTHING`,
        [memorialId],
      );
      const { rows } = await db.query(
        `UPDATE memorial_code_guards SET
           window_start = CASE WHEN window_start <= now() - interval '15 minutes' THEN now() ELSE window_start END,
           window_failures = CASE WHEN window_start <= now() - interval '15 minutes' THEN 1 ELSE window_failures + 1 END
         WHERE memorial_id = $1 AND (locked_until IS NULL OR locked_until <= now())
           AND (window_start <= now() - interval '15 minutes' OR window_failures < $2)
         RETURNING memorial_id`,
        [memorialId, perWindow],
      );
      return rows.length === 1;
    },

    /** The code was right: the slot is given back. */
    async releaseMemorialSlot(memorialId: string) {
      await db.query(
        `UPDATE memorial_code_guards SET window_failures = GREATEST(window_failures - 1, 0) WHERE memorial_id = $1`,
        [memorialId],
      );
    },

    /**
     * The code was wrong: counted; when the window is full the memorial is locked for 15 minutes times
     * 2^(earlier locks), at most 24 hours (earlier locks are forgotten after a week without failures, longer than any lock).
     */
    async recordMemorialFailure(
      memorialId: string,
      perWindow: number,
    ): Promise<{ totalFailures: number; lockedUntil: Date | null }> {
      const earlierLocks = `(CASE WHEN last_failure_at < now() - interval '7 days' THEN 0 ELSE locks END)`;
      const lockNow = `(window_failures >= $2 AND (locked_until IS NULL OR locked_until <= now()))`;
      const { rows } = await db.query<{ total_failures: number; locked_until: Date | string | null }>(
        `UPDATE memorial_code_guards SET
           total_failures = total_failures + 1,
           last_failure_at = now(),
           locks = ${earlierLocks} + CASE WHEN ${lockNow} THEN 1 ELSE 0 END,
           locked_until = CASE WHEN ${lockNow}
             THEN now() + LEAST(interval '15 minutes' * power(2, LEAST(${earlierLocks}, 7)), interval '24 hours')
             ELSE locked_until END
         WHERE memorial_id = $1
         RETURNING total_failures, locked_until`,
        [memorialId, perWindow],
      );
      const row = rows[0];
      return {
        totalFailures: row?.total_failures ?? 0,
        lockedUntil: row?.locked_until ? new Date(row.locked_until) : null,
      };
    },

    /** The memorial's name and its owners' addresses, for the mail at many failures. */
    async ownersOf(q: Queryable, memorialId: string) {
      const { rows } = await q.query<{ email: string; name: string | null; memorial_name: string }>(
        `SELECT u.email, u.name, m.first_name || ' ' || m.last_name AS memorial_name
           FROM memorial_members mm JOIN users u ON u.id = mm.user_id JOIN memorials m ON m.id = mm.memorial_id
          WHERE mm.memorial_id = $1 AND mm.role = 'owner' AND u.email IS NOT NULL`,
        [memorialId],
      );
      return rows;
    },

    /** True once per memorial, for the caller that may tell the owner: at `threshold` failures or more. */
    async claimOwnerAlert(q: Queryable, memorialId: string, threshold: number): Promise<boolean> {
      const { rows } = await q.query(
        `UPDATE memorial_code_guards SET owner_told_at = now()
          WHERE memorial_id = $1 AND owner_told_at IS NULL AND total_failures >= $2 RETURNING memorial_id`,
        [memorialId, threshold],
      );
      return rows.length === 1;
    },

    /** True for the one caller that may send the alert `kind` now (at most once per `hours`). */
    async claimAlert(q: Queryable, kind: string, hours: number): Promise<boolean> {
      const { rows } = await q.query(
        `INSERT INTO access_code_alerts (kind, sent_at) VALUES ($1, now())
         ON CONFLICT (kind) DO UPDATE SET sent_at = now()
           WHERE access_code_alerts.sent_at <= now() - make_interval(hours => $2)
         RETURNING kind`,
        [kind, hours],
      );
      return rows.length === 1;
    },

    async insertLinkToken(
      q: Queryable,
      t: {
        memorialId: string;
        tokenHash: string;
        purpose: 'invite' | 'access';
        inviteId: string | null;
        guestName: string | null;
        createdBy: string | null;
        expiresAt: Date;
      },
    ) {
      await q.query(
        `INSERT INTO guest_link_tokens (memorial_id, token_hash, purpose, invite_id, guest_name, access_code_version, created_by, expires_at)
         SELECT $1, $2, $3, $4, $5, m.access_code_version, $6, $7 FROM memorials m WHERE m.id = $1`,
        [t.memorialId, t.tokenHash, t.purpose, t.inviteId, t.guestName, t.createdBy, t.expiresAt],
      );
    },

    /**
     * Claims a usable link token for the guest token `guestTokenId`: undefined when unknown, used,
     * expired, out of date, or its invite was revoked, accepted or has expired. The link keeps the guest
     * token's id, so ending the link later ends that token too.
     */
    async claimLinkToken(q: Queryable, tokenHash: string, guestTokenId: string) {
      const { rows } = await q.query<{
        id: string;
        memorial_id: string;
        guest_name: string | null;
        access_code_version: number;
        purpose: string;
      }>(
        `SELECT l.id, l.memorial_id, l.guest_name, l.access_code_version, l.purpose
           FROM guest_link_tokens l
           JOIN memorials m ON m.id = l.memorial_id
           LEFT JOIN guest_invites i ON i.id = l.invite_id
          WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now()
            AND m.status = 'active' AND m.access_code_version = l.access_code_version
            AND (l.invite_id IS NULL
                 OR (i.revoked_at IS NULL AND i.accepted_at IS NULL AND i.expires_at > now()))
          FOR UPDATE OF l`,
        [tokenHash],
      );
      const row = rows[0];
      if (!row) return undefined;
      const used = await q.query(
        'UPDATE guest_link_tokens SET used_at = now(), guest_token_id = $2 WHERE id = $1 AND used_at IS NULL RETURNING id',
        [row.id, guestTokenId],
      );
      return used.rowCount === 1 ? row : undefined;
    },

    /** Invalidates the unused links of an invite (accepted, revoked or resent). */
    async expireInviteLinks(q: Queryable, inviteId: string) {
      await q.query(
        `UPDATE guest_link_tokens SET expires_at = GREATEST(created_at + interval '1 millisecond', now()) WHERE invite_id = $1 AND used_at IS NULL AND expires_at > now()`,
        [inviteId],
      );
    },

    /** Ends the links of a revoked invite: unused ones stop working, guest tokens from used ones are refused. */
    async endInviteLinks(q: Queryable, inviteId: string) {
      await q.query(`${endLinks} WHERE i.id = l.invite_id AND i.id = $1 AND ${stillOpen}`, [inviteId]);
    },

    /**
     * Ends the links of a removed member's invitations on this memorial (the invites they accepted or
     * that were sent to their address), and so the guest tokens those links were exchanged for.
     */
    async endMemberLinks(q: Queryable, memorialId: string, userId: string) {
      await q.query(
        `${endLinks} WHERE i.id = l.invite_id AND i.memorial_id = $1
            AND (i.accepted_by = $2 OR lower(i.email) = (SELECT lower(u.email) FROM users u WHERE u.id = $2))
            AND ${stillOpen}`,
        [memorialId, userId],
      );
    },
  };
}
