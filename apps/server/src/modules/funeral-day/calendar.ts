/** Wall-clock time in Europe/Amsterdam, the calendar file (RFC 5545) and the CSV export of the RSVPs. */

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

/** A plain link that opens the address in OpenStreetMap (no script or embed on our pages). */
export const mapUrl = (placeName: string, address: string) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${placeName}, ${address}`)}`;

const icsText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines longer than 75 octets are folded (RFC 5545 §3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    const limit = out.length === 0 ? 75 : 74;
    if (octets + n > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += n;
  }
  out.push(current);
  return out.join('\r\n ');
}

const local = (date: string, time: string) => `${date.replace(/-/g, '')}T${time.replace(':', '')}00`;
const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** The rules of Europe/Amsterdam since 1996, so every calendar reads the local times right. */
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Amsterdam',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

export function serviceIcs(o: {
  id: string;
  title: string;
  date: string;
  startTime: string;
  endTime: string | null;
  location: string;
  description: string;
  url: string;
  now: Date;
}): string {
  // Without an end time, the event lasts an hour.
  const end = o.endTime
    ? local(o.date, o.endTime)
    : utcStamp(new Date(amsterdamInstant(o.date, o.startTime).getTime() + 3_600_000));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Aandenken//Bijeenkomst//NL',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...VTIMEZONE,
    'BEGIN:VEVENT',
    `UID:${o.id}@aandenken.nl`,
    `DTSTAMP:${utcStamp(o.now)}`,
    `DTSTART;TZID=Europe/Amsterdam:${local(o.date, o.startTime)}`,
    o.endTime ? `DTEND;TZID=Europe/Amsterdam:${end}` : `DTEND:${end}`,
    `SUMMARY:${icsText(o.title)}`,
    `LOCATION:${icsText(o.location)}`,
    `DESCRIPTION:${icsText(o.description)}`,
    `URL:${o.url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}

/** A CSV field for Dutch Excel (`;` separated); formulas are defused (a leading =, +, -, @ gets a quote). */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[";\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** UTF-8 with a byte order mark, so Excel reads the accents right; CRLF line ends. */
export const csvFile = (rows: (string | number | null)[][]) =>
  '\uFEFF' + rows.map((r) => r.map(csvField).join(';')).join('\r\n') + '\r\n';
