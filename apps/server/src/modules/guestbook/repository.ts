import type { Queryable } from '../../db/client.ts';

export interface GuestbookRow {
  memorial_id: string;
  token: string;
  open: boolean;
  [key: string]: unknown;
}

export interface EntryRow {
  id: string;
  memorial_id: string;
  name: string;
  address: string | null;
  message: string | null;
  hidden: boolean;
  created_at: Date | string;
  [key: string]: unknown;
}

const entryColumns = 'id, memorial_id, name, address, message, hidden, created_at';

export function guestbookRepository(db: Queryable) {
  return {
    async find(memorialId: string): Promise<GuestbookRow | undefined> {
      const { rows } = await db.query<GuestbookRow>(
        'SELECT memorial_id, token, open FROM memorial_guestbooks WHERE memorial_id = $1',
        [memorialId],
      );
      return rows[0];
    },
    /** The guestbook of a short link, with the memorial it belongs to (not deleted). */
    async byToken(token: string) {
      const { rows } = await db.query<
        GuestbookRow & {
          first_name: string;
          last_name: string;
          birth_date: string | null;
          death_date: string | null;
          status: string;
        }
      >(
        `SELECT g.memorial_id, g.token, g.open, m.first_name, m.last_name, m.birth_date::text AS birth_date,
                m.death_date::text AS death_date, m.status
           FROM memorial_guestbooks g JOIN memorials m ON m.id = g.memorial_id AND m.deleted_at IS NULL
          WHERE g.token = $1`,
        [token],
      );
      return rows[0];
    },
    /** Opens it (made with `token` the first time) or closes it. */
    async setOpen(memorialId: string, open: boolean, token: string): Promise<GuestbookRow> {
      const { rows } = await db.query<GuestbookRow>(
        `INSERT INTO memorial_guestbooks (memorial_id, token, open, closed_at)
         VALUES ($1, $2, $3, CASE WHEN $3 THEN NULL ELSE now() END)
         ON CONFLICT (memorial_id) DO UPDATE SET open = EXCLUDED.open,
           opened_at = CASE WHEN EXCLUDED.open AND NOT memorial_guestbooks.open THEN now()
                            ELSE memorial_guestbooks.opened_at END,
           closed_at = CASE WHEN EXCLUDED.open THEN NULL
                            WHEN memorial_guestbooks.open THEN now() ELSE memorial_guestbooks.closed_at END
         RETURNING memorial_id, token, open`,
        [memorialId, token, open],
      );
      return rows[0]!;
    },
    async entries(memorialId: string, o: { includeHidden: boolean }): Promise<EntryRow[]> {
      const { rows } = await db.query<EntryRow>(
        `SELECT ${entryColumns} FROM guestbook_entries
          WHERE memorial_id = $1${o.includeHidden ? '' : ' AND NOT hidden'} ORDER BY created_at, id`,
        [memorialId],
      );
      return rows;
    },
    async entry(memorialId: string, id: string): Promise<EntryRow | undefined> {
      const { rows } = await db.query<EntryRow>(
        `SELECT ${entryColumns} FROM guestbook_entries WHERE memorial_id = $1 AND id = $2`,
        [memorialId, id],
      );
      return rows[0];
    },
    async insert(
      memorialId: string,
      e: { name: string; address: string | null; message: string | null },
    ): Promise<EntryRow> {
      const { rows } = await db.query<EntryRow>(
        `INSERT INTO guestbook_entries (memorial_id, name, address, message) VALUES ($1, $2, $3, $4)
         RETURNING ${entryColumns}`,
        [memorialId, e.name, e.address, e.message],
      );
      return rows[0]!;
    },
    async setHidden(memorialId: string, id: string, hidden: boolean): Promise<EntryRow | undefined> {
      const { rows } = await db.query<EntryRow>(
        `UPDATE guestbook_entries SET hidden = $3 WHERE memorial_id = $1 AND id = $2 RETURNING ${entryColumns}`,
        [memorialId, id, hidden],
      );
      return rows[0];
    },
  };
}
