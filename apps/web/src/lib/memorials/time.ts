import { formatDate, lazily } from '../format.ts';

const relative = lazily(() => new Intl.RelativeTimeFormat('nl-NL', { numeric: 'auto' }));

/** 'zojuist', '5 minuten geleden', 'gisteren', '3 dagen geleden', else the date ('12 maart 2024'). */
export function formatRelative(value: string | Date, now = Date.now()): string {
  const then = new Date(value).getTime();
  const seconds = Math.round((then - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'zojuist';
  if (abs < 3600) return relative().format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative().format(Math.round(seconds / 3600), 'hour');
  if (abs < 7 * 86_400) return relative().format(Math.round(seconds / 86_400), 'day');
  return formatDate(new Date(then));
}

/** '2,4 MB', '840 kB' */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024)
    return `${(bytes / 1024 / 1024).toLocaleString('nl-NL', { maximumFractionDigits: 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('nl-NL')} kB`;
}
