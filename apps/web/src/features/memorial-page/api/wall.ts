import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { apiPaths, memoryLoveResultSchema, memoryPageSchema, type Memory } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

export const WALL_PAGE_SIZE = 12;
type WallPage = { items: Memory[]; nextCursor: string | null };

/** POST /core/memories/query-memorial: the wall, newest first, a page at a time. */
export function useWall(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useInfiniteQuery({
    queryKey: memorialKeys.wall(scope, memorialId),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      client.post(
        apiPaths.memoryWall(),
        { memorialId, limit: WALL_PAGE_SIZE, cursor: pageParam },
        { schema: memoryPageSchema, signal },
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** POST /core/memories/query-own: the caller's own memories here (to show what still waits for approval). */
export function useOwnMemories(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: [...memorialKeys.wall(scope, memorialId), 'own'],
    enabled,
    queryFn: ({ signal }) =>
      client.post(apiPaths.memoryOwnQuery(), { memorialId, limit: 50 }, { schema: memoryPageSchema, signal }),
  });
}

/** POST or DELETE /core/memories/{id}/love, shown at once and corrected by the answer. */
export function useToggleLove(memorialId: string) {
  const client = useApiClient();
  const scope = useViewerScope();
  const queryClient = useQueryClient();
  const key = memorialKeys.wall(scope, memorialId);
  const patch = (id: string, update: (m: Memory) => Memory) =>
    queryClient.setQueryData<InfiniteData<WallPage>>(
      key,
      (data) =>
        data && {
          ...data,
          pages: data.pages.map((p) => ({ ...p, items: p.items.map((m) => (m.id === id ? update(m) : m)) })),
        },
    );
  return useMutation({
    mutationFn: ({ id, loved }: { id: string; loved: boolean }) =>
      loved
        ? client.post(apiPaths.memoryLove(id), undefined, { schema: memoryLoveResultSchema })
        : client.delete(apiPaths.memoryLove(id), { schema: memoryLoveResultSchema }),
    onMutate: async ({ id, loved }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<InfiniteData<WallPage>>(key);
      patch(id, (m) => ({
        ...m,
        lovedBy: { ...m.lovedBy, byMe: loved, count: Math.max(0, m.lovedBy.count + (loved ? 1 : -1)) },
      }));
      return { before };
    },
    onError: (_err, _vars, ctx) => {
      if (ctx?.before) queryClient.setQueryData(key, ctx.before);
    },
    onSuccess: (result) => patch(result.id, (m) => ({ ...m, lovedBy: result.lovedBy })),
  });
}
