import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '@aandenken/contract';
import { useApiClient } from '../api-client.ts';
import { memorialKeys, memorialSchemas } from './queries.ts';
import { useViewerScope, type ViewerScope } from './scope.tsx';

/** The funeral day's services (docs/funeral-day.md): read by the memorial page and its management. */
export const servicesKey = (scope: ViewerScope, memorialId: string) =>
  [...memorialKeys.all(scope, memorialId), 'services'] as const;

/** GET /core/memorial/{id}/services: the services of the funeral day, in order. */
export function useServices(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: servicesKey(scope, memorialId),
    queryFn: async ({ signal }) =>
      client.get(apiPaths.funeralServices(memorialId), {
        schema: (await memorialSchemas()).memorialServiceListSchema,
        signal,
      }),
  });
}

/** 'vrijdag 4 december 2026': the service's date is a calendar date, not an instant. */
export const serviceDateNl = (date: string) =>
  new Intl.DateTimeFormat('nl-NL', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
