import { WERELDLICHTJESDAG_TIME, type RemembranceDay } from '@aandenken/contract';
import { secondSundayOfDecember } from '../../shared/amsterdam-time.ts';
import { diedAsChild, onDate } from '../../shared/child-age.ts';

/**
 * The remembrance days shown on a memorial page (docs/funeral-day.md, 'Samen herdenken'), each on its
 * next date from `today` (today itself included), soonest first:
 * - Allerzielen, 2 November, on every page;
 * - Wereldlichtjesdag, the second Sunday of December at 19:00, only on a child's page: both dates known
 *   and death before the 18th birthday (without both dates we do not guess);
 * - the page's own days: the birthday and the day of death, when those dates are known.
 */
export function remembranceDays(today: string, life: { birth: string | null; death: string | null }) {
  const year = Number(today.slice(0, 4));
  const days: RemembranceDay[] = [];
  const next = (monthDay: string, from = year) => {
    for (let y = from; ; y++) {
      const date = onDate(y, monthDay);
      if (date >= today) return date;
    }
  };
  days.push({ kind: 'allerzielen', date: next('11-02'), time: null, years: null });
  if (diedAsChild(life)) {
    let date = secondSundayOfDecember(year);
    if (date < today) date = secondSundayOfDecember(year + 1);
    days.push({ kind: 'wereldlichtjesdag', date, time: WERELDLICHTJESDAG_TIME, years: null });
  }
  if (life.birth) {
    const date = next(life.birth.slice(5));
    days.push({ kind: 'verjaardag', date, time: null, years: Number(date.slice(0, 4)) - yearOf(life.birth) });
  }
  if (life.death) {
    const date = next(life.death.slice(5), Math.max(year, yearOf(life.death) + 1));
    days.push({ kind: 'sterfdag', date, time: null, years: Number(date.slice(0, 4)) - yearOf(life.death) });
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const yearOf = (date: string) => Number(date.slice(0, 4));
