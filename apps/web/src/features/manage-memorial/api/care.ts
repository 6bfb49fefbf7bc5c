import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, memorialCareSchema, type MemorialCare } from '@aandenken/contract';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

const careKey = (memorialId: string) => ['memorial-care', memorialId] as const;

/**
 * GET /core/memorial/{id}/care: the funeral company that made the page and what the family chose; null
 * for a page nobody made for a family (404).
 */
export function useMemorialCare(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: careKey(memorialId),
    retry: false,
    queryFn: async ({ signal }): Promise<MemorialCare | null> => {
      try {
        return await client.get(apiPaths.memorialCare(memorialId), { schema: memorialCareSchema, signal });
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null;
        throw e;
      }
    },
  });
}

/** PUT /core/memorial/{id}/care: the family grants or withdraws the partner role, shows or hides "Verzorgd door". */
export function useUpdateMemorialCare(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: { partnerRoleAllowed?: boolean; shownPublicly?: boolean }) =>
      client.put(apiPaths.memorialCare(memorialId), patch, { schema: memorialCareSchema }),
    // The checkbox shows the choice at once; a refusal puts it back.
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: careKey(memorialId) });
      const before = queryClient.getQueryData<MemorialCare | null>(careKey(memorialId));
      if (before) queryClient.setQueryData(careKey(memorialId), { ...before, ...patch });
      return { before };
    },
    onError: (_e, _patch, context) => {
      if (context?.before) queryClient.setQueryData(careKey(memorialId), context.before);
    },
    onSuccess: (data) =>
      Promise.all([
        queryClient.setQueryData(careKey(memorialId), data),
        queryClient.invalidateQueries({ queryKey: memorialKeys.root }),
      ]),
  });
}
