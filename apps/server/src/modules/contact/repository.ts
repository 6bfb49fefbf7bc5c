import type { ContactMessage } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export function contactRepository(db: Queryable) {
  return {
    async insert(msg: ContactMessage): Promise<string> {
      const { rows } = await db.query<{ id: string }>(
        'INSERT INTO contact_messages (name, email, subject, message) VALUES ($1,$2,$3,$4) RETURNING id',
        [msg.name, msg.email.toLowerCase(), msg.subject, msg.message],
      );
      return rows[0]!.id;
    },
  };
}
