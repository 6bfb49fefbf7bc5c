import type { Queryable } from '../db/client.ts';

/** The memorial's row as other features touch it (the memorials module owns the table). */

/**
 * Locks the memorial's row until the transaction ends, so changes to one page that count or check each other
 * (a limit, a single owner, one job at a time) take turns. Returns its status, or undefined when it is gone.
 */
export async function lockMemorial(
  tx: Queryable,
  memorialId: string,
): Promise<{ status: string } | undefined> {
  const { rows } = await tx.query<{ status: string }>(
    'SELECT status FROM memorials WHERE id = $1 FOR UPDATE',
    [memorialId],
  );
  return rows[0];
}

/** The names of the one remembered, for a mail's subject and greeting; undefined when the page is gone. */
export async function memorialNames(
  q: Queryable,
  memorialId: string,
): Promise<{ first_name: string; last_name: string } | undefined> {
  const { rows } = await q.query<{ first_name: string; last_name: string }>(
    'SELECT first_name, last_name FROM memorials WHERE id = $1',
    [memorialId],
  );
  return rows[0];
}
