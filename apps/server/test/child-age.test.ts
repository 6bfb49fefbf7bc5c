import { describe, expect, it } from 'vitest';
import { remembranceDays } from '../src/modules/candles/moment-days.ts';
import { diedAsChild, onDate } from '../src/shared/child-age.ts';

/**
 * The one rule for a child's page (died before the 18th birthday), at its boundaries. The memorial page's
 * remembrance days (candle-moment.test.ts) and the remembrance mail (future-messages.test.ts) both use it.
 */
const cases: [birth: string | null, death: string | null, child: boolean, why: string][] = [
  ['2000-05-10', '2018-05-09', true, 'the day before the 18th birthday'],
  ['2000-05-10', '2018-05-10', false, 'on the 18th birthday'],
  ['2000-05-10', '2018-05-11', false, 'the day after'],
  ['2000-05-10', '2000-05-10', true, 'on the day of birth'],
  ['2000-12-31', '2018-12-30', true, 'the day before, at the end of a year'],
  ['2000-12-31', '2018-12-31', false, 'on the birthday, at the end of a year'],
  // Born on 29 February: 18 years later is never a leap year, so the birthday is 28 February.
  ['2008-02-29', '2026-02-27', true, 'leap-day birth, the day before 28 February'],
  ['2008-02-29', '2026-02-28', false, 'leap-day birth, on 28 February'],
  ['2008-02-29', '2026-03-01', false, 'leap-day birth, on 1 March'],
  ['2000-02-29', '2018-02-28', false, 'leap-day birth in 2000 (a leap year by the 400 rule)'],
  ['1982-02-28', '2000-02-28', false, 'born on 28 February, birthday in a leap year'],
  ['1982-02-28', '2000-02-27', true, 'born on 28 February, the day before'],
  ['1982-03-01', '2000-02-29', true, 'born on 1 March, died on 29 February the year it turns 18'],
  [null, '2010-01-01', false, 'no birth date: no guess'],
  ['2005-01-01', null, false, 'no death date: no guess'],
];

describe('died before the 18th birthday', () => {
  it.each(cases)('born %s, died %s: child %s (%s)', (birth, death, child) => {
    expect(diedAsChild({ birth, death })).toBe(child);
  });

  it.each(cases)('born %s, died %s: Wereldlichtjesdag on the page %s (%s)', (birth, death, child) => {
    const kinds = remembranceDays('2026-11-24', { birth, death }).map((d) => d.kind);
    expect(kinds.includes('wereldlichtjesdag')).toBe(child);
  });

  it('puts 29 February on 28 February in a year without it', () => {
    expect(onDate(2026, '02-29')).toBe('2026-02-28');
    expect(onDate(2028, '02-29')).toBe('2028-02-29');
    expect(onDate(2100, '02-29')).toBe('2100-02-28');
    expect(onDate(2000, '02-29')).toBe('2000-02-29');
    expect(onDate(2026, '03-01')).toBe('2026-03-01');
  });
});
