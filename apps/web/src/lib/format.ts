/** The one place where dates, numbers and amounts are put into Dutch. */
const locale = 'nl-NL';

const dateFormat = new Intl.DateTimeFormat(locale, {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/Amsterdam',
});
const numberFormat = new Intl.NumberFormat(locale);
const euroFormat = new Intl.NumberFormat(locale, {
  style: 'currency',
  currency: 'EUR',
  minimumFractionDigits: 0,
  maximumFractionDigits: 2,
});

function toDate(value: Date | string): Date {
  // A bare ISO date (YYYY-MM-DD) is a calendar day: read it at noon so no time zone shifts it.
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
    ? new Date(`${value}T12:00:00Z`)
    : new Date(value);
}

/** 12 maart 2024 */
export function formatDate(value: Date | string): string {
  return dateFormat.format(toDate(value));
}

/** 1.250 */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** € 50 or € 12,50 */
export function formatEuro(amount: number): string {
  return euroFormat.format(amount);
}

/** "1 bloem" / "3 bloemen" */
export function formatCount(value: number, singular: string, plural: string): string {
  return `${formatNumber(value)} ${value === 1 ? singular : plural}`;
}
