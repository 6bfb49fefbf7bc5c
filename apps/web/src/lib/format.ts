/** The one place where dates, numbers and amounts are put into Dutch. */
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

/** 12 maart 2024 */
export function formatDate(value: Date | string): string {
  return dateFormat().format(toDate(value));
}

/** 1.250 */
export function formatNumber(value: number): string {
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
