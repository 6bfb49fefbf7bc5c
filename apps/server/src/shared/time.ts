/**
 * ISO 8601 (UTC, milliseconds), as the API writes timestamps, of a timestamp from the database: a `Date`,
 * PostgreSQL's text of it, or epoch milliseconds (the wall selects those: cheaper to make and to read).
 */
export const iso = (d: Date | string | number): string => new Date(d).toISOString();

export const isoOrNull = (d: Date | string | null | undefined) => (d == null ? null : iso(d));
