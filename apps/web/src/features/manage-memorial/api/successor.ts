import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, successorSchema, type SuccessorSet } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

const key = (memorialId: string) => memorialKeys.manage('session', memorialId, 'successor');

/** GET /core/memorial/{id}/successor (owners). */
export function useSuccessor(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: key(memorialId),
    queryFn: ({ signal }) => client.get(apiPaths.successor(memorialId), { schema: successorSchema, signal }),
  });
}

/** PUT (name or change) or DELETE (remove) the successor. */
export function useSetSuccessor(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SuccessorSet | null) =>
      input
        ? client.put(apiPaths.successor(memorialId), input, { schema: successorSchema })
        : client.delete(apiPaths.successor(memorialId), { schema: successorSchema }),
    onSuccess: (data) => queryClient.setQueryData(key(memorialId), data),
  });
}
