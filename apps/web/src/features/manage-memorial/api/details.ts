import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, memorialSchema, type MemorialUpdate } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys, myMemorialsKey } from '../../../lib/memorials/queries.ts';

/** PUT /core/memorial: details, cover, status, visibility; the answer replaces the cached memorial. */
export function useUpdateMemorial(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Omit<MemorialUpdate, 'id'>) =>
      client.put(apiPaths.memorials(), { id: memorialId, ...patch }, { schema: memorialSchema }),
    onSuccess: (memorial) => {
      queryClient.setQueryData(memorialKeys.detail('session', memorialId), memorial);
      return queryClient.invalidateQueries({ queryKey: myMemorialsKey });
    },
  });
}
