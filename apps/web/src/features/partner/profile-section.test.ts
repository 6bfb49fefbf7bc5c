import { describe, expect, it } from 'vitest';
import { euroToCents, parseRanges } from './profile-section.tsx';

describe('the profile form’s amounts and postcode ranges', () => {
  it.each([
    ['3950', 395000],
    ['3.950', 395000],
    ['3.950,50', 395050],
    ['€ 1.250,00', 125000],
    ['12,5', 1250],
    ['99.95', 9995],
    ['1.234.567', 123456700],
  ])('reads %s as %i cents', (typed, cents) => {
    expect(euroToCents(typed)).toBe(cents);
  });

  it('reads postcodes and ranges separated by commas, and refuses anything else', () => {
    expect(parseRanges('1000-1099, 3512;3700 – 3709\n')).toEqual([
      { from: 1000, to: 1099 },
      { from: 3512, to: 3512 },
      { from: 3700, to: 3709 },
    ]);
    expect(parseRanges('')).toEqual([]);
    expect(parseRanges('2000-1000')).toBeNull();
    expect(parseRanges('0999')).toBeNull();
    expect(parseRanges('3512 AB')).toBeNull();
  });
});
