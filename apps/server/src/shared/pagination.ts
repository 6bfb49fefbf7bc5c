import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '@aandenken/contract';
import { badRequest } from '../lib/errors.ts';

/**
 * Keyset cursors: the sort key of the last row of a page, as opaque base64url JSON. Timestamps travel
 * as PostgreSQL text (microseconds kept), so `(created_at, id) < ($1::timestamptz, $2::uuid)` is exact.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor(
  cursor: string | null | undefined,
  shape: readonly ('string' | 'number')[],
): (string | number)[] | null {
  if (!cursor) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== shape.length ||
    parsed.some((v, i) => typeof v !== shape[i] || (typeof v === 'string' && v.length > 100))
  ) {
    throw badRequest('Ongeldige cursor. Begin opnieuw bij de eerste pagina.', { cursor: 'Ongeldige cursor' });
  }
  return parsed as (string | number)[];
}

export const clampLimit = (limit: number | undefined) =>
  Math.min(Math.max(limit ?? PAGE_LIMIT_DEFAULT, 1), PAGE_LIMIT_MAX);

/** Fetch `limit + 1` rows; this cuts the extra one off and builds the next cursor from the last kept row. */
export function toPage<R, T>(rows: R[], limit: number, map: (r: R) => T, key: (r: R) => (string | number)[]) {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(map), nextCursor: more && last ? encodeCursor(key(last)) : null };
}

export { isUuid } from '../lib/ids.ts';
