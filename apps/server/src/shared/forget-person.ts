import type { Queryable } from '../db/client.ts';

/**
 * Whom an account deletion forgets: the user's id and their address (lower case; '' when they had none).
 * Each feature's service exports `forgetPerson(tx, person)` for its own tables; the account module calls them
 * all in its one transaction (docs/privacy.md).
 */
export interface PersonToForget {
  userId: string;
  email: string;
}

export type ForgetPerson = (tx: Queryable, person: PersonToForget) => Promise<void>;
