import { describe, expect, it } from 'vitest';
import { dutchCalendarDay } from './index.ts';

describe('dutchCalendarDay', () => {
  it('writes a calendar day in Dutch words', () => {
    expect(dutchCalendarDay('1950-03-12')).toBe('12 maart 1950');
    expect(dutchCalendarDay('2026-12-01')).toBe('1 december 2026');
  });

  it('gives null for anything but an ISO calendar day', () => {
    for (const s of ['', '12-03-1950', '1950-13-01', '1950-03-12T10:00:00Z'])
      expect(dutchCalendarDay(s), s).toBeNull();
  });
});
