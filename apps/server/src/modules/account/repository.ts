import type { Queryable } from '../../db/client.ts';

/** The person and their sign-in (`users`, `accounts`). */
export const accountRepository = {
  /** The user's address (their sign-in's, else their own); undefined when deleted or unknown. */
  async find(q: Queryable, userId: string) {
    const { rows } = await q.query<{ email: string | null }>(
      `SELECT coalesce(a.email, u.email) AS email
         FROM users u LEFT JOIN accounts a ON a.id::text = u.id WHERE u.id = $1 AND u.deleted_at IS NULL`,
      [userId],
    );
    return rows[0];
  },

  /** The account (password, Google link, mailed links with it) goes: the address can register again. */
  async deleteAccount(q: Queryable, accountId: string) {
    await q.query('DELETE FROM accounts WHERE id = $1::uuid', [accountId]);
  },

  /** The user row stays, without e-mail and name, so what they left keeps its place; deleted from now on. */
  async anonymise(q: Queryable, userId: string) {
    await q.query(
      `UPDATE users SET email = NULL, name = NULL, deleted_at = now(), updated_at = now() WHERE id = $1`,
      [userId],
    );
  },
};
