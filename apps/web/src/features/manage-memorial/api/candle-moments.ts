import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  candleMomentDeletedSchema,
  candleMomentSchema,
  type CandleMoment,
  type CandleMomentInput,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** POST (new) or PUT (existing) a kaarsjesmoment; the page's reads again in every scope. */
export function useSaveCandleMoment(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: CandleMomentInput }) =>
      id
        ? client.put(apiPaths.candleMoment(memorialId, id), input, { schema: candleMomentSchema })
        : client.post(apiPaths.candleMoments(memorialId), input, { schema: candleMomentSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memorialKeys.root }),
  });
}

export function useCancelCandleMoment(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (m: CandleMoment) =>
      client.delete(apiPaths.candleMoment(memorialId, m.id), { schema: candleMomentDeletedSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memorialKeys.root }),
  });
}
