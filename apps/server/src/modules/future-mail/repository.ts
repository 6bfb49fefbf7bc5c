import type { FutureMessage, SubscriptionAccessVia, SubscriptionKind } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';
import { subscriptionAccessSql } from '../../shared/subscription-access.ts';

/** The access a sign-up is made with (migration 127). */
export type SubscriptionAccess = {
  via: SubscriptionAccessVia;
  userId: string | null;
  guestTokenId: string | null;
  accessCodeVersion: number | null;
};

export type SubscriptionRow = {
  id: string;
  email: string;
  name: string | null;
  access_via: SubscriptionAccessVia;
  kinds: SubscriptionKind[];
  created_at: Date | string;
  confirmed_at: Date | string;
  has_access: boolean;
};

/** Not switched off with the one-click link for this page, address (`addr`, lower case) and kind. */
const notOptedOut = (memorialId: string, addr: string, kind: string) =>
  `NOT EXISTS (SELECT 1 FROM memorial_mail_opt_outs o
                WHERE o.memorial_id = ${memorialId} AND o.email_lower = ${addr} AND o.kind = ${kind})`;

/**
 * The name of the account that signed in with this address, if any: the address's owner named themselves
 * there. The name stored with a sign-up is whoever filled in the form, who may have typed someone else's address.
 */
const accountName = (addr: string) =>
  `(SELECT u.name FROM users u WHERE lower(u.email) = lower(${addr}) AND u.deleted_at IS NULL
     ORDER BY u.created_at LIMIT 1)`;

export function futureMailRepository(db: Queryable) {
  return {
    /**
     * Who a mail of this kind from this page would go to, each address once: for the family's messages the
     * members with an account address and the confirmed sign-ups, for reminders only the sign-ups that asked
     * for that kind; never an address that switched the kind off. `has_access` false: a sign-up whose access
     * to the page has ended (`subscriptionAccessSql`), to be skipped.
     */
    async recipients(memorialId: string, kind: SubscriptionKind, q: Queryable = db) {
      const { rows } = await q.query<{ email_lower: string; email: string; has_access: boolean }>(
        `WITH addrs AS (
           SELECT lower(u.email) AS email_lower, u.email, true AS has_access
             FROM memorial_members mm JOIN users u ON u.id = mm.user_id
             JOIN memorials m ON m.id = mm.memorial_id AND m.deleted_at IS NULL
            WHERE mm.memorial_id = $1 AND $2 = 'messages' AND u.email IS NOT NULL AND u.deleted_at IS NULL
           UNION ALL
           SELECT lower(s.email), s.email, ${subscriptionAccessSql('s', 'm')}
             FROM memorial_subscriptions s JOIN memorials m ON m.id = s.memorial_id
            WHERE s.memorial_id = $1 AND s.confirmed_at IS NOT NULL AND $2 = ANY (s.kinds)
         )
         SELECT DISTINCT ON (email_lower) email_lower, email, has_access FROM addrs
          WHERE ${notOptedOut('$1', 'addrs.email_lower', '$2')}
          ORDER BY email_lower, has_access DESC`,
        [memorialId, kind],
      );
      return rows;
    },

    /**
     * Today's anniversary reminders: confirmed sign-ups for 'birthday' or 'deathday' on active pages whose date
     * is one of `days` (MM-DD), with whether each still has access.
     */
    async anniversarySignUps(days: string[], today: string) {
      const { rows } = await db.query<{
        memorial_id: string;
        first_name: string;
        last_name: string;
        birth_date: string | null;
        death_date: string | null;
        email: string;
        name: string | null;
        kind: 'birthday' | 'deathday';
        has_access: boolean;
      }>(
        `SELECT m.id AS memorial_id, m.first_name, m.last_name, m.birth_date::text AS birth_date,
                m.death_date::text AS death_date, s.email, ${accountName('s.email')} AS name, k.kind,
                ${subscriptionAccessSql('s', 'm')} AS has_access
           FROM memorial_subscriptions s
           JOIN memorials m ON m.id = s.memorial_id AND m.deleted_at IS NULL AND m.status = 'active'
           CROSS JOIN LATERAL unnest(s.kinds) AS k(kind)
          WHERE s.confirmed_at IS NOT NULL
            AND ((k.kind = 'birthday' AND to_char(m.birth_date, 'MM-DD') = ANY ($1::text[]) AND m.birth_date < $2::date)
              OR (k.kind = 'deathday' AND to_char(m.death_date, 'MM-DD') = ANY ($1::text[]) AND m.death_date < $2::date))
            AND ${notOptedOut('m.id', 'lower(s.email)', 'k.kind')}`,
        [days, today],
      );
      return rows;
    },

    /**
     * Today's remembrance reminders: confirmed 'remembrance' sign-ups on active pages when it is Allerzielen,
     * Wereldlichtjesdag or the day of a kaarsjesmoment on the page, with whether each still has access.
     */
    async remembranceSignUps(today: string, allerzielen: boolean, lichtjesdag: boolean) {
      const { rows } = await db.query<{
        memorial_id: string;
        first_name: string;
        last_name: string;
        email: string;
        birth_date: string | null;
        death_date: string | null;
        moment_time: string | null;
        name: string | null;
        has_access: boolean;
      }>(
        `SELECT m.id AS memorial_id, m.first_name, m.last_name, s.email, ${accountName('s.email')} AS name,
                m.birth_date::text AS birth_date, m.death_date::text AS death_date,
                to_char(cm.starts_at, 'HH24:MI') AS moment_time, ${subscriptionAccessSql('s', 'm')} AS has_access
           FROM memorial_subscriptions s
           JOIN memorials m ON m.id = s.memorial_id AND m.deleted_at IS NULL AND m.status = 'active'
           LEFT JOIN LATERAL (SELECT starts_at FROM candle_moments
                               WHERE memorial_id = m.id AND moment_date = $1::date
                               ORDER BY starts_at LIMIT 1) cm ON true
          WHERE s.confirmed_at IS NOT NULL AND 'remembrance' = ANY (s.kinds)
            AND ($2::boolean OR $3::boolean OR cm.starts_at IS NOT NULL)
            AND ${notOptedOut('m.id', 'lower(s.email)', `'remembrance'`)}`,
        [today, allerzielen, lichtjesdag],
      );
      return rows;
    },

    /**
     * A sign-up asked for: a new address starts with this access; for a known one the access waits with the
     * kinds for the confirmation link.
     */
    async upsertSignUp(
      q: Queryable,
      s: {
        memorialId: string;
        email: string;
        name: string | null;
        kinds: SubscriptionKind[];
        tokenHash: string;
        expiresAt: Date;
        access: SubscriptionAccess;
      },
    ) {
      await q.query(
        `INSERT INTO memorial_subscriptions (memorial_id, email, name, pending_kinds, confirm_token_hash,
                                             confirm_expires_at, access_via, user_id, guest_token_id,
                                             access_code_version, pending_access)
         VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $9, $10, $11::jsonb)
         ON CONFLICT (memorial_id, lower(email)) DO UPDATE
           SET pending_kinds = EXCLUDED.pending_kinds, confirm_token_hash = EXCLUDED.confirm_token_hash,
               confirm_expires_at = EXCLUDED.confirm_expires_at, pending_access = EXCLUDED.pending_access,
               updated_at = now()`,
        [
          s.memorialId,
          s.email,
          s.name,
          s.kinds,
          s.tokenHash,
          s.expiresAt,
          s.access.via,
          s.access.userId,
          s.access.guestTokenId,
          s.access.accessCodeVersion,
          JSON.stringify({ ...s.access, name: s.name }),
        ],
      );
    },

    /** The confirmation link was followed: the kinds asked for start, with the access they were asked with. */
    async confirmSignUp(q: Queryable, id: string, kinds: SubscriptionKind[], at: Date) {
      await q.query(
        `UPDATE memorial_subscriptions
            SET kinds = $2::text[], pending_kinds = '{}', confirm_token_hash = NULL, confirm_expires_at = NULL,
                confirmed_at = coalesce(confirmed_at, $3),
                access_via = coalesce(pending_access ->> 'via', access_via),
                user_id = CASE WHEN pending_access IS NULL THEN user_id ELSE pending_access ->> 'userId' END,
                guest_token_id = CASE WHEN pending_access IS NULL THEN guest_token_id
                                      ELSE (pending_access ->> 'guestTokenId')::uuid END,
                access_code_version = CASE WHEN pending_access IS NULL THEN access_code_version
                                           ELSE (pending_access ->> 'accessCodeVersion')::int END,
                name = CASE WHEN pending_access IS NULL THEN name ELSE pending_access ->> 'name' END,
                pending_access = NULL, updated_at = now()
          WHERE id = $1`,
        [id, kinds, at],
      );
    },

    /** The page's confirmed sign-ups, newest first, with whether each may still receive mail now. */
    async listSignUps(memorialId: string): Promise<SubscriptionRow[]> {
      const { rows } = await db.query<SubscriptionRow>(
        `SELECT s.id, s.email, s.name, s.access_via, s.kinds, s.created_at, s.confirmed_at,
                ${subscriptionAccessSql('s', 'm')} AS has_access
           FROM memorial_subscriptions s JOIN memorials m ON m.id = s.memorial_id
          WHERE s.memorial_id = $1 AND s.confirmed_at IS NOT NULL
          ORDER BY s.confirmed_at DESC, s.id`,
        [memorialId],
      );
      return rows;
    },

    /** What a guest token signing up stands on: the code's version now and whether a one-time link gave it. */
    async guestTokenAccess(memorialId: string, tokenId: string) {
      const { rows } = await db.query<{ access_code_version: number; from_link: boolean }>(
        `SELECT m.access_code_version,
                EXISTS (SELECT 1 FROM guest_link_tokens l WHERE l.guest_token_id = $2) AS from_link
           FROM memorials m WHERE m.id = $1`,
        [memorialId, tokenId],
      );
      return rows[0] ?? null;
    },

    /** Removes one sign-up of the page; its access path, or null when there is none. */
    async removeSignUp(q: Queryable, memorialId: string, id: string) {
      const { rows } = await q.query<{ access_via: SubscriptionAccessVia }>(
        `DELETE FROM memorial_subscriptions WHERE id = $1 AND memorial_id = $2 RETURNING access_via`,
        [id, memorialId],
      );
      return rows[0] ?? null;
    },
    /** The sign-up behind a confirmation link still valid at `at`, locked; its page's names with it. */
    async signUpToConfirm(q: Queryable, tokenHash: string, at: Date) {
      const { rows } = await q.query<{
        id: string;
        memorial_id: string;
        email: string;
        kinds: SubscriptionKind[];
        pending_kinds: SubscriptionKind[];
        first_name: string;
        last_name: string;
      }>(
        `SELECT s.id, s.memorial_id, s.email, s.kinds, s.pending_kinds, m.first_name, m.last_name
           FROM memorial_subscriptions s JOIN memorials m ON m.id = s.memorial_id AND m.deleted_at IS NULL
          WHERE s.confirm_token_hash = $1 AND s.confirm_expires_at > $2 FOR UPDATE OF s`,
        [tokenHash, at],
      );
      return rows[0];
    },

    /** Earlier one-click opt-outs of these kinds end (the address asked for them again). */
    async endOptOuts(q: Queryable, memorialId: string, email: string, kinds: SubscriptionKind[]) {
      await q.query(
        `DELETE FROM memorial_mail_opt_outs WHERE memorial_id = $1 AND email_lower = lower($2) AND kind = ANY ($3::text[])`,
        [memorialId, email, kinds],
      );
    },

    /** The one-click opt-out: kept as a row, the kind leaves the sign-up, an empty sign-up goes. */
    async optOut(q: Queryable, memorialId: string, emailLower: string, kind: string) {
      await q.query(
        `INSERT INTO memorial_mail_opt_outs (memorial_id, email_lower, kind) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [memorialId, emailLower, kind],
      );
      await q.query(
        `UPDATE memorial_subscriptions SET kinds = array_remove(kinds, $3), updated_at = now()
          WHERE memorial_id = $1 AND lower(email) = $2`,
        [memorialId, emailLower, kind],
      );
      // Nothing left to send: the sign-up (the address) goes; the opt-out row keeps it switched off.
      await q.query(
        `DELETE FROM memorial_subscriptions
          WHERE memorial_id = $1 AND lower(email) = $2 AND kinds = '{}' AND pending_kinds = '{}'`,
        [memorialId, emailLower],
      );
    },

    /** Sign-ups never confirmed are forgotten when their link expires. */
    async forgetUnconfirmed(at: Date) {
      await db.query(
        `DELETE FROM memorial_subscriptions WHERE confirmed_at IS NULL AND confirm_expires_at < $1`,
        [at],
      );
    },
  };
}

export type MessageRow = {
  id: string;
  memorial_id: string;
  subject: string;
  body: string;
  send_at: Date | string;
  status: FutureMessage['status'];
  recipient_count: number | null;
  skipped_count: number | null;
  sent_at: Date | string | null;
  created_at: Date | string;
};
const MESSAGE_COLUMNS = `id, memorial_id, subject, body, send_at, status, recipient_count, skipped_count, sent_at, created_at`;

/** The family's messages for later (`future_messages`); each takes the client, a transaction's where it runs in one. */
export const futureMessages = {
  /** Messages that count against the plan's limit, and how many of them still wait. */
  async countUsed(q: Queryable, memorialId: string) {
    const { rows } = await q.query<{ n: number; waiting: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'scheduled')::int AS waiting
         FROM future_messages WHERE memorial_id = $1 AND status IN ('scheduled', 'sent')`,
      [memorialId],
    );
    return rows[0]!;
  },

  async findForUpdate(q: Queryable, memorialId: string, messageId: string): Promise<MessageRow | undefined> {
    const { rows } = await q.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM future_messages WHERE id = $1 AND memorial_id = $2 FOR UPDATE`,
      [messageId, memorialId],
    );
    return rows[0];
  },

  async list(q: Queryable, memorialId: string): Promise<MessageRow[]> {
    const { rows } = await q.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM future_messages WHERE memorial_id = $1 ORDER BY send_at DESC, id`,
      [memorialId],
    );
    return rows;
  },

  async insert(
    q: Queryable,
    memorialId: string,
    m: { subject: string; body: string; sendAt: Date; createdBy: string | null },
  ): Promise<MessageRow> {
    const { rows } = await q.query<MessageRow>(
      `INSERT INTO future_messages (memorial_id, subject, body, send_at, created_by)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${MESSAGE_COLUMNS}`,
      [memorialId, m.subject, m.body, m.sendAt, m.createdBy],
    );
    return rows[0]!;
  },

  async update(q: Queryable, messageId: string, m: { subject: string; body: string; sendAt: Date }) {
    const { rows } = await q.query<MessageRow>(
      `UPDATE future_messages SET subject = $2, body = $3, send_at = $4, updated_at = now()
        WHERE id = $1 RETURNING ${MESSAGE_COLUMNS}`,
      [messageId, m.subject, m.body, m.sendAt],
    );
    return rows;
  },

  async cancel(q: Queryable, messageId: string) {
    const { rows } = await q.query<MessageRow>(
      `UPDATE future_messages SET status = 'cancelled', cancelled_at = now(), updated_at = now()
        WHERE id = $1 RETURNING ${MESSAGE_COLUMNS}`,
      [messageId],
    );
    return rows;
  },

  /** Up to 100 messages whose moment came, oldest first. */
  async due(q: Queryable, at: Date) {
    const { rows } = await q.query<{ id: string }>(
      `SELECT id FROM future_messages WHERE status = 'scheduled' AND send_at <= $1 ORDER BY send_at, id LIMIT 100`,
      [at],
    );
    return rows;
  },

  /** The due message, locked for this sweep (another sweep skips it); undefined when sent, cancelled or taken. */
  async claimDue(q: Queryable, id: string, at: Date) {
    const { rows } = await q.query<MessageRow & { first_name: string; last_name: string }>(
      `SELECT f.id, f.memorial_id, f.subject, f.body, m.first_name, m.last_name
         FROM future_messages f JOIN memorials m ON m.id = f.memorial_id AND m.deleted_at IS NULL
        WHERE f.id = $1 AND f.status = 'scheduled' AND f.send_at <= $2
        FOR UPDATE OF f SKIP LOCKED`,
      [id, at],
    );
    return rows[0];
  },

  async markSent(q: Queryable, id: string, at: Date, recipients: number, skipped: number) {
    await q.query(
      `UPDATE future_messages SET status = 'sent', sent_at = $2, recipient_count = $3, skipped_count = $4,
              updated_at = now()
        WHERE id = $1`,
      [id, at, recipients, skipped],
    );
  },
};

/** What the scheduled sweeps remember: each occasion mailed once per address, the day's reminder sweep. */
export const scheduledMail = {
  /** True when this occasion was not yet mailed to the address (and now counts as mailed). */
  async deliverOnce(q: Queryable, occasion: string, emailLower: string, at: Date): Promise<boolean> {
    const { rowCount } = await q.query(
      `INSERT INTO scheduled_mail_deliveries (occasion, email_lower, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [occasion, emailLower, at],
    );
    return rowCount === 1;
  },

  async forgetOldDeliveries(q: Queryable, at: Date) {
    await q.query(
      `DELETE FROM scheduled_mail_deliveries WHERE created_at < $1::timestamptz - interval '30 days'`,
      [at],
    );
  },

  async claimReminderSweep(q: Queryable, today: string, until: Date, at: Date): Promise<boolean> {
    const { rowCount } = await q.query(
      `UPDATE scheduled_mail_sweeps SET claimed_until = $2
        WHERE name = 'reminders' AND swept_on IS DISTINCT FROM $1::date
          AND (claimed_until IS NULL OR claimed_until <= $3)`,
      [today, until, at],
    );
    return rowCount === 1;
  },

  async releaseReminderSweep(q: Queryable) {
    await q.query(`UPDATE scheduled_mail_sweeps SET claimed_until = NULL WHERE name = 'reminders'`);
  },

  async markReminderSweepDone(q: Queryable, today: string) {
    await q.query(
      `UPDATE scheduled_mail_sweeps SET swept_on = $1::date, claimed_until = NULL WHERE name = 'reminders'`,
      [today],
    );
  },
};
