import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, candlePageSchema, candleSchema, type CandleCreate } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

export const CANDLES_PAGE_SIZE = 8;

/** POST /core/candles/query: newest first, with the totals per kind. */
export function useCandles(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useInfiniteQuery({
    queryKey: memorialKeys.candles(scope, memorialId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      client.post(
        apiPaths.candlesQuery(),
        { memorialId, limit: CANDLES_PAGE_SIZE, cursor: pageParam },
        { schema: candlePageSchema, signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** POST /core/candles/{memorialId} */
export function useLightCandle(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CandleCreate) =>
      client.post(apiPaths.candleCreate(memorialId), input, { schema: candleSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memorialKeys.all(scope, memorialId) }),
  });
}
