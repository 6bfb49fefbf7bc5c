/** A PostgreSQL timestamp as the API writes it: ISO 8601 in UTC with milliseconds. */
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * ISO 8601 (UTC, milliseconds) of a timestamp from the database: a `Date`, PostgreSQL's text, or text
 * already in this form (made in SQL by `to_char`, see the wall), which is passed on as it is.
 */
export const iso = (d: Date | string): string =>
  typeof d === 'string' && d.length === 24 && ISO_UTC_MS.test(d) ? d : new Date(d).toISOString();
