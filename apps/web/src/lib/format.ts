/** The one place where dates, numbers and amounts are put into Dutch. */
import { dutchCalendarDay } from '@aandenken/contract';

const locale = 'nl-NL';

/**
 * Each formatter is made on its first use, not when this module loads: the browser's first Intl formatter
 * loads the locale's data (about 15 ms on a fast machine, 60 ms on Lighthouse's phone), and made at load
 * that cost joined the evaluation of the whole page's chunk in one long task. Made during rendering, it
 * lands in a slice of its own, which React can yield around.
 */
export function lazily<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const dateFormat = lazily(
  () =>
    new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Europe/Amsterdam',
    }),
);
const numberFormat = lazily(() => new Intl.NumberFormat(locale));
const euroFormat = lazily(
  () =>
    new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }),
);

function toDate(value: Date | string): Date {
  // A bare ISO date (YYYY-MM-DD) is a calendar day: read it at noon so no time zone shifts it.
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T12:00:00Z`)
    : new Date(value);
}

/**
 * 12 maart 2024. A bare calendar day (a birth or death date, on the memorial page's first screen) is written
 * without Intl: the first formatter loads the locale's data in the task that hydrates the page (about 60 ms on
 * a phone profile), for a date that needs no time zone. The same words as the formatter (format.test.ts).
 */
export function formatDate(value: Date | string): string {
  const day = typeof value === 'string' ? dutchCalendarDay(value) : null;
  return day ?? dateFormat().format(toDate(value));
}

/** 1.250. A whole number (the counts in the memorial page's hero) without Intl, as formatDate's calendar day. */
export function formatNumber(value: number): string {
  if (Number.isSafeInteger(value)) {
    const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, '.');
    return value < 0 ? `-${digits}` : digits;
  }
  return numberFormat().format(value);
}

/** € 50 or € 12,50 */
export function formatEuro(amount: number): string {
  return euroFormat().format(amount);
}

/** "1 bloem" / "3 bloemen" */
export function formatCount(value: number, singular: string, plural: string): string {
  return `${formatNumber(value)} ${value === 1 ? singular : plural}`;
}
