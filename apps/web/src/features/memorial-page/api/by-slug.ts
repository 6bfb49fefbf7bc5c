import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys, memorialSchemas } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

/**
 * GET /core/memorial/by-slug/{slug}: the id and current address of the page at a readable address. Here, not
 * beside the other memorial queries, so that its schema loads with the memorial page instead of the entry.
 */
export function useMemorialBySlug(slug: string, enabled = true) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: memorialKeys.bySlug(scope, slug),
    enabled,
    retry: false,
    // An address does not move while the page is open.
    staleTime: Infinity,
    queryFn: async ({ signal }) =>
      client.get(apiPaths.memorialBySlug(slug), {
        schema: (await memorialSchemas()).memorialBySlugSchema,
        signal,
      }),
  });
}
