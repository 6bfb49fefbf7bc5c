import type { Queryable } from '../db/client.ts';

/**
 * Returns the secret stored under `name`, creating it with `create()` on first use. Safe when several
 * processes start at once: the first insert wins and everyone reads the same value.
 */
export async function getOrCreateSecret<T>(
  db: Queryable,
  name: string,
  create: () => Promise<T> | T,
): Promise<T> {
  const existing = await db.query<{ value: T }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  if (existing.rows[0]) return existing.rows[0].value;
  const value = await create();
  await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(value),
  ]);
  const { rows } = await db.query<{ value: T }>('SELECT value FROM server_secrets WHERE name = $1', [name]);
  return rows[0]!.value;
}
