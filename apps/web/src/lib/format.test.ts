import { describe, expect, it } from 'vitest';
import { formatDate, formatNumber } from './format.ts';

describe('formatDate', () => {
  const intl = new Intl.DateTimeFormat('nl-NL', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Europe/Amsterdam',
  });

  it('writes a calendar day exactly as the Dutch formatter does, for every month', () => {
    for (const iso of ['2024-01-01', '1941-05-02', '2024-03-12', '1999-12-31', '0999-07-09', '2000-02-29'])
      expect(formatDate(iso)).toBe(intl.format(new Date(`${iso}T12:00:00Z`)));
    for (let month = 1; month <= 12; month++) {
      const iso = `2023-${String(month).padStart(2, '0')}-15`;
      expect(formatDate(iso)).toBe(intl.format(new Date(`${iso}T12:00:00Z`)));
    }
  });

  it('formats moments in Amsterdam’s time', () => {
    expect(formatDate('2024-03-12T23:30:00Z')).toBe('13 maart 2024');
    expect(formatDate(new Date('2024-03-12T10:00:00Z'))).toBe('12 maart 2024');
  });
});

describe('formatNumber', () => {
  it('writes whole numbers exactly as the Dutch formatter does', () => {
    const intl = new Intl.NumberFormat('nl-NL');
    for (const n of [0, 7, 999, 1000, 1250, 12345, 123456, 1234567, -5, -1250, 2 ** 40])
      expect(formatNumber(n)).toBe(intl.format(n));
    expect(formatNumber(2.5)).toBe(intl.format(2.5));
  });
});
