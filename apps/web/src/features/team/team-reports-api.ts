import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  takedownItemsSchema,
  teamHandOverResultSchema,
  type TakedownItemType,
  type TeamHandOver,
} from '@aandenken/contract';
import { useApiClient } from '../../lib/api-client.ts';

const reportsKey = ['team', 'takedowns'] as const;

/** GET /core/team/takedowns: reported or hidden items on every page, open reports first. */
export function useTeamReports() {
  const client = useApiClient();
  return useQuery({
    queryKey: reportsKey,
    queryFn: ({ signal }) => client.get(apiPaths.teamTakedowns(), { schema: takedownItemsSchema, signal }),
  });
}

/** Hide (with a reason) or show again; the list changes. */
export function useTeamHide() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { itemType: TakedownItemType; itemId: string; reason?: string }) =>
      d.reason === undefined
        ? client.post(apiPaths.teamTakedownUnhide(d.itemType, d.itemId), undefined, {
            schema: takedownItemsSchema,
          })
        : client.post(
            apiPaths.teamTakedownHide(d.itemType, d.itemId),
            { reason: d.reason },
            { schema: takedownItemsSchema },
          ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: reportsKey }),
  });
}

/** POST /core/team/memorials/{id}/hand-over */
export function useHandOver() {
  const client = useApiClient();
  return useMutation({
    mutationFn: (d: TeamHandOver & { memorialId: string }) =>
      client.post(
        apiPaths.teamHandOver(d.memorialId),
        { email: d.email, reason: d.reason },
        { schema: teamHandOverResultSchema },
      ),
  });
}
