import type { Queryable } from '../../db/client.ts';

/** The person and their sign-in (`users`, `accounts`, and what the sign-in keeps of them). */
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

  /** The address's login counters, and pending sign-ins at the provider that name it (login_hint). */
  async forgetSignInsOf(q: Queryable, email: string) {
    await q.query('DELETE FROM login_failures WHERE email = $1', [email]);
    await q.query(`DELETE FROM oidc_models WHERE strpos(lower(payload::text), $1) > 0`, [email]);
  },
};

/**
 * The memories a deleted account leaves. The memories module was being changed when account deletion moved
 * to each feature's `forgetPerson`; these statements move there next.
 */
export const memoriesForgetting = {
  /** What they left on memorials stays, from "een voormalig lid"; concepts (seen by nobody else) go. */
  async authoredBy(q: Queryable, userId: string, formerName: string) {
    await q.query(`DELETE FROM memories WHERE author_user_id = $1 AND status = 'concept'`, [userId]);
    await q.query(`UPDATE memories SET author_name = $2 WHERE author_user_id = $1`, [userId, formerName]);
    await q.query('UPDATE memory_loves SET name = NULL WHERE user_id = $1', [userId]);
  },

  /** Memories left as a visitor with this address: unconfirmed ones go, confirmed ones stay without it. */
  async leftAsVisitor(q: Queryable, email: string) {
    await q.query(
      `DELETE FROM memories WHERE id IN (SELECT memory_id FROM memory_visitors WHERE email = $1 AND confirmed_at IS NULL)`,
      [email],
    );
    await q.query('DELETE FROM memory_visitors WHERE email = $1', [email]);
  },
};
