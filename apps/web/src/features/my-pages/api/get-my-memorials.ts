import { useQuery } from '@tanstack/react-query';
import { apiPaths, memorialPartOfResultSchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { myMemorialsKey } from '../../../lib/memorials/queries.ts';

/** POST /core/memorial/query/partof: the signed-in user's memorials with their role. */
export function useMyMemorials(enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: myMemorialsKey,
    enabled,
    queryFn: ({ signal }) =>
      client.post(apiPaths.memorialPartOf(), { limit: 100 }, { schema: memorialPartOfResultSchema, signal }),
  });
}
