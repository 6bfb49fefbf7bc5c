import { useInfiniteQuery } from '@tanstack/react-query';
import { apiPaths, auditPageSchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** GET /core/memorial/{id}/audit: newest first (owners). */
export function useAuditLog(memorialId: string) {
  const client = useApiClient();
  return useInfiniteQuery({
    queryKey: memorialKeys.manage('session', memorialId, 'audit'),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ limit: '30', ...(pageParam ? { cursor: pageParam } : {}) });
      return client.get(`${apiPaths.audit(memorialId)}?${query}`, { schema: auditPageSchema, signal });
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}
