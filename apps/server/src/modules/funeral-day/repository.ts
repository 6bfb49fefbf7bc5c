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
