import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys, memorialSchemas, myMemorialsKey } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

/** PUT /core/memorial { status: 'active' }: a concept becomes visible ('Publiceren'). */
export function usePublishMemorial(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      client.put(
        apiPaths.memorials(),
        { id: memorialId, status: 'active' },
        { schema: (await memorialSchemas()).memorialSchema },
      ),
    onSuccess: (memorial) => {
      queryClient.setQueryData(memorialKeys.detail(scope, memorialId), memorial);
      return queryClient.invalidateQueries({ queryKey: myMemorialsKey });
    },
  });
}
