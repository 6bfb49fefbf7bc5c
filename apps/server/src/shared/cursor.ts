import { badRequest } from '../lib/errors.ts';
import { decodeCursor, isUuid } from './pagination.ts';

/** PostgreSQL's text form of a timestamptz, e.g. `2025-05-01 10:11:12.123456+02`. */
const pgTimestamp = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

/** A keyset cursor of (created_at as PostgreSQL text, id), newest-first lists. */
export function timeIdCursor(cursor: string | null | undefined): [string, string] | null {
  const c = decodeCursor(cursor, ['string', 'string']) as [string, string] | null;
  if (c && (!pgTimestamp.test(c[0]) || !isUuid(c[1]))) {
    throw badRequest('Ongeldige cursor. Begin opnieuw bij de eerste pagina.', { cursor: 'Ongeldige cursor' });
  }
  return c;
}
