import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, memoryDeletedSchema, memoryManagePageSchema, memorySchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

export type ManagedStatus = 'pending' | 'published' | 'rejected';

/** POST /core/memories/query-manage: one status at a time, newest first, with the counts per status. */
export function useManagedMemories(memorialId: string, status: ManagedStatus) {
  const client = useApiClient();
  return useInfiniteQuery({
    queryKey: [...memorialKeys.manage('session', memorialId, 'memories'), status],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      client.post(
        apiPaths.memoryManageQuery(),
        { memorialId, status, limit: 20, cursor: pageParam },
        { schema: memoryManagePageSchema, signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

function useRefresh(memorialId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: memorialKeys.all('session', memorialId) });
}

/** PUT /core/memories/status: approve ('published') or reject ('rejected'). */
export function useModerateMemory(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'published' | 'rejected' }) =>
      client.put(apiPaths.memoryStatus(), { id, status }, { schema: memorySchema }),
    onSuccess: refresh,
  });
}

/** PUT /core/memories/privacy: members only, or not. */
export function useSetMembersOnly(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: ({ id, membersOnly }: { id: string; membersOnly: boolean }) =>
      client.put(apiPaths.memoryPrivacy(), { id, membersOnly }, { schema: memorySchema }),
    onSuccess: refresh,
  });
}

/** DELETE /core/memories/{id}: with its photos. */
export function useDeleteMemory(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: (id: string) => client.delete(apiPaths.memory(id), { schema: memoryDeletedSchema }),
    onSuccess: refresh,
  });
}
