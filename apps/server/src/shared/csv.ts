/** CSV exports for Dutch Excel: the RSVP list (funeral-day) and the guestbook. */

/** A CSV field for Dutch Excel (`;` separated); formulas are defused (a leading =, +, -, @ gets a quote). */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[";\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** UTF-8 with a byte order mark, so Excel reads the accents right; CRLF line ends. */
export const csvFile = (rows: (string | number | null)[][]) =>
  '\uFEFF' + rows.map((r) => r.map(csvField).join(';')).join('\r\n') + '\r\n';
