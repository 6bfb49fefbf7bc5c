import type { SubscriptionAccessVia, SubscriptionKind } from '@aandenken/contract';
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
        kind: 'birthday' | 'deathday';
        has_access: boolean;
      }>(
        `SELECT m.id AS memorial_id, m.first_name, m.last_name, m.birth_date::text AS birth_date,
                m.death_date::text AS death_date, s.email, k.kind, ${subscriptionAccessSql('s', 'm')} AS has_access
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
        has_access: boolean;
      }>(
        `SELECT m.id AS memorial_id, m.first_name, m.last_name, s.email,
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
  };
}
