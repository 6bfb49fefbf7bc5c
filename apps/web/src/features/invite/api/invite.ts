import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, inviteAcceptedSchema, invitePreviewSchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys, myMemorialsKey } from '../../../lib/memorials/queries.ts';

/** GET /core/guest-invite/invite-code/{code}: who invites to which memorial (404 when revoked or unknown). */
export function useInvitePreview(code: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['invite', code],
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.inviteByCode(code), {
        schema: invitePreviewSchema,
        signal,
      }),
  });
}

/** POST /core/guest-invite/accept/{code}: the signed-in user becomes a member. */
export function useAcceptInvite(code: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      client.post(apiPaths.inviteAccept(code), undefined, {
        schema: inviteAcceptedSchema,
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myMemorialsKey }),
        queryClient.removeQueries({ queryKey: memorialKeys.root }),
      ]),
  });
}
