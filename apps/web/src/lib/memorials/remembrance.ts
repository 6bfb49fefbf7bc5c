import { useQuery } from '@tanstack/react-query';
import { apiPaths, remembranceSchema, type CandleMoment } from '@aandenken/contract';
import { useApiClient } from '../api-client.ts';
import { memorialKeys } from './queries.ts';
import { useViewerScope, type ViewerScope } from './scope.tsx';

/** The kaarsjesmomenten and remembrance days (docs/funeral-day.md, 'Samen herdenken'). */
export const remembranceKey = (scope: ViewerScope, memorialId: string) =>
  [...memorialKeys.all(scope, memorialId), 'remembrance'] as const;

/** GET /core/memorial/{id}/candle-moments: the moments not yet over and the next remembrance days. */
export function useRemembrance(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: remembranceKey(scope, memorialId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.candleMoments(memorialId), { schema: remembranceSchema, signal }),
  });
}

const clock = new Intl.DateTimeFormat('nl-NL', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Amsterdam',
});
/** '20:00–21:00': the moment's hours in Dutch time. */
export const momentHours = (m: CandleMoment) =>
  `${clock.format(new Date(m.startsAt))}–${clock.format(new Date(m.endsAt))}`;

/** Whether the moment is on at `now` (ms). */
export const momentIsOn = (m: CandleMoment, now: number) =>
  Date.parse(m.startsAt) <= now && now < Date.parse(m.endsAt);
