import { formatDate } from '../../../lib/format.ts';
import { formatRelative } from '../../../lib/memorials/time.ts';
import { useHydrated } from '../../../lib/use-hydrated.ts';

/**
 * '5 minuten geleden' in the browser; the date in the server's HTML and while it hydrates (that HTML may be
 * hours old). Its own component, so only this text renders again once hydrated.
 */
export function RelativeTime({ value }: { value: string }) {
  return <>{useHydrated() ? formatRelative(value) : formatDate(value)}</>;
}
