/** The months as Dutch dates are written in words. */
export const DUTCH_MONTHS = [
  'januari',
  'februari',
  'maart',
  'april',
  'mei',
  'juni',
  'juli',
  'augustus',
  'september',
  'oktober',
  'november',
  'december',
] as const;

/**
 * '12 maart 1950' from a calendar day in ISO form ('1950-03-12'); null for anything else. Written without
 * Intl: a calendar day needs no time zone, and the page's first screen need not load the locale's data.
 */
export function dutchCalendarDay(iso: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const month = m ? DUTCH_MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} ${month} ${Number(m[1])}` : null;
}
