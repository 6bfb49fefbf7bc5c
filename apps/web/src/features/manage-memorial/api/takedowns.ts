import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, takedownItemsSchema, type TakedownItemType } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** GET /core/memorial/{id}/takedowns: reported or hidden items of the page (owners). */
export function usePageReports(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: memorialKeys.manage('session', memorialId, 'takedowns'),
    queryFn: ({ signal }) =>
      client.get(apiPaths.memorialTakedowns(memorialId), { schema: takedownItemsSchema, signal }),
  });
}

/** An owner hides an item (with a reason) or shows what they hid again; the page's reads change too. */
export function useOwnerHide(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { itemType: TakedownItemType; itemId: string; reason?: string }) =>
      d.reason === undefined
        ? client.post(apiPaths.takedownUnhide(d.itemType, d.itemId), undefined, {
            schema: takedownItemsSchema,
          })
        : client.post(
            apiPaths.takedownHide(d.itemType, d.itemId),
            { reason: d.reason },
            { schema: takedownItemsSchema },
          ),
    onSuccess: () =>
      void queryClient.invalidateQueries({ queryKey: memorialKeys.all('session', memorialId) }),
  });
}
