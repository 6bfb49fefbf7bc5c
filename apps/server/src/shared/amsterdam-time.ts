/** Wall-clock time in Europe/Amsterdam: the dates and times families enter are Dutch time. */

const TZ = 'Europe/Amsterdam';
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function wallClock(d: Date) {
  const p = Object.fromEntries(parts.formatToParts(d).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

/** The date in Amsterdam at this instant, `YYYY-MM-DD`. */
export const amsterdamDate = (d: Date): string => wallClock(d).date;
/**
 * Whole days from `now` to `end` as a Dutch calendar counts them: 0 on the day `end` falls on (and after it),
 * 30 on the day a 30-day period starts, whatever the hour.
 */
export function amsterdamDaysUntil(end: Date, now: Date): number {
  const day = (d: Date) => Date.parse(`${amsterdamDate(d)}T00:00:00Z`);
  return Math.max(0, Math.round((day(end) - day(now)) / 86_400_000));
}
/** The time of day in Amsterdam at this instant, `HH:MM`. */
export const amsterdamTime = (d: Date): string => wallClock(d).time.slice(0, 5);

const offsetMs = (at: number) => {
  const w = wallClock(new Date(at));
  return Date.parse(`${w.date}T${w.time}Z`) - at;
};

/** The instant of a wall-clock time in Amsterdam (`YYYY-MM-DD`, `HH:MM`). */
export function amsterdamInstant(date: string, time: string): Date {
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  let at = asUtc - offsetMs(asUtc);
  const again = offsetMs(at);
  if (asUtc - again !== at) at = asUtc - again;
  return new Date(at);
}

/** ISO 8601 with Amsterdam's offset: '2026-12-01T14:30:00+01:00'. */
export function amsterdamIso(date: string, time: string): string {
  const at = amsterdamInstant(date, time).getTime();
  const off = Math.round(offsetMs(at) / 60_000);
  const sign = off < 0 ? '-' : '+';
  const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, '0');
  const mm = String(Math.abs(off) % 60).padStart(2, '0');
  return `${date}T${time}:00${sign}${hh}:${mm}`;
}

/** The second Sunday of December (Wereldlichtjesdag), `YYYY-MM-DD`. */
export function secondSundayOfDecember(year: number): string {
  const first = new Date(Date.UTC(year, 11, 1)).getUTCDay(); // 0 = Sunday
  const firstSunday = 1 + ((7 - first) % 7);
  return `${year}-12-${String(firstSunday + 7).padStart(2, '0')}`;
}
