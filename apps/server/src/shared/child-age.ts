import { CHILD_AGE_LIMIT } from '@aandenken/contract';

/**
 * When a page counts as a child's page (Wereldlichtjesdag on the page and in the remembrance mail,
 * docs/funeral-day.md): one rule for both, here.
 */

export const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The date of `monthDay` ('MM-DD') in `year`; 29 February falls on 28 February in a year without it. */
export function onDate(year: number, monthDay: string): string {
  return `${year}-${monthDay === '02-29' && !isLeapYear(year) ? '02-28' : monthDay}`;
}

/**
 * Died before their 18th birthday (`CHILD_AGE_LIMIT`); false when a date is missing (we do not guess). Dates
 * are 'YYYY-MM-DD'. Born on 29 February: the birthday of a year without it is 28 February (as PostgreSQL's
 * `date + interval '18 years'`), and 18 is no multiple of 4, so it always is.
 */
export function diedAsChild(life: { birth: string | null; death: string | null }): boolean {
  if (!life.birth || !life.death) return false;
  const birthday = onDate(Number(life.birth.slice(0, 4)) + CHILD_AGE_LIMIT, life.birth.slice(5));
  return life.death < birthday;
}
