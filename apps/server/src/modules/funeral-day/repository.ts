import type { ServiceKind } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export interface ServiceRow {
  id: string;
  memorial_id: string;
  kind: ServiceKind;
  service_date: string;
  starts_at: string;
  ends_at: string | null;
  place_name: string;
  address: string;
  programme: string | null;
  livestream_url: string | null;
  after_text: string | null;
  rsvp_open: boolean;
  rsvp_closes_at: Date | string | null;
  [key: string]: unknown;
}

export interface RsvpRow {
  id: string;
  service_id: string;
  name: string;
  people: number;
  note: string | null;
  created_at: Date | string;
  [key: string]: unknown;
}

export interface ServiceFields {
  kind: ServiceKind;
  date: string;
  startTime: string;
  endTime: string | null;
  placeName: string;
  address: string;
  programme: string | null;
  livestreamUrl: string | null;
  afterText: string | null;
  rsvpOpen: boolean;
  rsvpClosesAt: string | null;
}

// Dates and times as text, so no time zone of the process comes in between.
const columns = `id, memorial_id, kind, service_date::text AS service_date, to_char(starts_at, 'HH24:MI') AS starts_at,
  to_char(ends_at, 'HH24:MI') AS ends_at, place_name, address, programme, livestream_url, after_text, rsvp_open,
  rsvp_closes_at`;

const values = (f: ServiceFields) => [
  f.kind,
  f.date,
  f.startTime,
  f.endTime,
  f.placeName,
  f.address,
  f.programme,
  f.livestreamUrl,
  f.afterText,
  f.rsvpOpen,
  f.rsvpClosesAt,
];

export function funeralDayRepository(db: Queryable) {
  return {
    /** Services with RSVPs since their last summary, and none mailed in the last 23 hours. */
    async summariesDue(now: Date) {
      const { rows } = await db.query<{
        service_id: string;
        memorial_id: string;
        kind: ServiceRow['kind'];
        service_date: string;
        first_name: string;
        last_name: string;
        last_seen: string | null;
      }>(
        // last_seen as text: a JavaScript Date would cut the database's microseconds off.
        `SELECT s.id AS service_id, s.memorial_id, s.kind, s.service_date::text AS service_date, m.first_name,
                m.last_name, coalesce(sum.last_rsvp_at, sum.sent_at)::text AS last_seen
           FROM memorial_services s
           JOIN memorials m ON m.id = s.memorial_id AND m.deleted_at IS NULL
           LEFT JOIN service_rsvp_summaries sum ON sum.service_id = s.id
          WHERE (sum.sent_at IS NULL OR sum.sent_at <= $1::timestamptz - interval '23 hours')
            AND EXISTS (SELECT 1 FROM service_rsvps r WHERE r.service_id = s.id
                         AND (sum.service_id IS NULL OR r.created_at > coalesce(sum.last_rsvp_at, sum.sent_at)))`,
        [now],
      );
      return rows;
    },

    /** Every RSVP of the service, those after `lastSeen` marked new. */
    async rsvpsForSummary(serviceId: string, lastSeen: string | null) {
      const { rows } = await db.query<{ id: string; name: string; people: number; is_new: boolean }>(
        `SELECT id, name, people, ($2::timestamptz IS NULL OR created_at > $2::timestamptz) AS is_new
           FROM service_rsvps WHERE service_id = $1 ORDER BY created_at, id`,
        [serviceId, lastSeen],
      );
      return rows;
    },

    /** The owners and editors to mail the summary to. */
    async managers(memorialId: string) {
      const { rows } = await db.query<{ email: string; name: string | null }>(
        `SELECT u.email, u.name FROM memorial_members mm JOIN users u ON u.id = mm.user_id
          WHERE mm.memorial_id = $1 AND mm.role IN ('owner', 'editor') AND u.email IS NOT NULL
            AND u.deleted_at IS NULL
          ORDER BY mm.created_at`,
        [memorialId],
      );
      return rows;
    },

    /** The newest RSVP this summary included marks where the next one starts (the database's clock). */
    async markSummarySent(serviceId: string, now: Date, rsvpIds: string[]) {
      await db.query(
        `INSERT INTO service_rsvp_summaries (service_id, sent_at, last_rsvp_at)
         VALUES ($1, $2, (SELECT max(created_at) FROM service_rsvps WHERE id = ANY($3::uuid[])))
         ON CONFLICT (service_id) DO UPDATE SET sent_at = EXCLUDED.sent_at, last_rsvp_at = EXCLUDED.last_rsvp_at`,
        [serviceId, now, rsvpIds],
      );
    },

    async list(memorialId: string): Promise<ServiceRow[]> {
      const { rows } = await db.query<ServiceRow>(
        `SELECT ${columns} FROM memorial_services WHERE memorial_id = $1 ORDER BY service_date, starts_at, created_at`,
        [memorialId],
      );
      return rows;
    },
    async find(memorialId: string, id: string): Promise<ServiceRow | undefined> {
      const { rows } = await db.query<ServiceRow>(
        `SELECT ${columns} FROM memorial_services WHERE memorial_id = $1 AND id = $2`,
        [memorialId, id],
      );
      return rows[0];
    },
    async count(memorialId: string): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM memorial_services WHERE memorial_id = $1',
        [memorialId],
      );
      return rows[0]!.n;
    },
    async insert(memorialId: string, userId: string | null, f: ServiceFields): Promise<ServiceRow> {
      const { rows } = await db.query<ServiceRow>(
        `INSERT INTO memorial_services (memorial_id, created_by, kind, service_date, starts_at, ends_at, place_name,
           address, programme, livestream_url, after_text, rsvp_open, rsvp_closes_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${columns}`,
        [memorialId, userId, ...values(f)],
      );
      return rows[0]!;
    },
    async update(memorialId: string, id: string, f: ServiceFields): Promise<ServiceRow | undefined> {
      const { rows } = await db.query<ServiceRow>(
        `UPDATE memorial_services SET kind = $3, service_date = $4, starts_at = $5, ends_at = $6, place_name = $7,
           address = $8, programme = $9, livestream_url = $10, after_text = $11, rsvp_open = $12,
           rsvp_closes_at = $13, updated_at = now()
         WHERE memorial_id = $1 AND id = $2 RETURNING ${columns}`,
        [memorialId, id, ...values(f)],
      );
      return rows[0];
    },
    async delete(memorialId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query(
        'DELETE FROM memorial_services WHERE memorial_id = $1 AND id = $2',
        [memorialId, id],
      );
      return (rowCount ?? 0) > 0;
    },
    async insertRsvp(serviceId: string, r: { name: string; people: number; note: string | null }) {
      const { rows } = await db.query<RsvpRow>(
        `INSERT INTO service_rsvps (service_id, name, people, note) VALUES ($1, $2, $3, $4)
         RETURNING id, service_id, name, people, note, created_at`,
        [serviceId, r.name, r.people, r.note],
      );
      return rows[0]!;
    },
    async rsvps(serviceId: string): Promise<RsvpRow[]> {
      const { rows } = await db.query<RsvpRow>(
        `SELECT id, service_id, name, people, note, created_at FROM service_rsvps
          WHERE service_id = $1 ORDER BY created_at, id`,
        [serviceId],
      );
      return rows;
    },
  };
}
