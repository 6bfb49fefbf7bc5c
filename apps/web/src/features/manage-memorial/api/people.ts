import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  inviteQueryResultSchema,
  inviteSentSchema,
  memberQueryResultSchema,
  memberSchema,
  type InviteCreate,
  type MemberRole,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** POST /core/memorial/users/query: the members, first joined first. */
export function useMembers(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: memorialKeys.manage('session', memorialId, 'members'),
    queryFn: ({ signal }) =>
      client.post(
        apiPaths.membersQuery(),
        { memorialId, limit: 100 },
        { schema: memberQueryResultSchema, signal },
      ),
  });
}

/** POST /core/guest-invite/query: the open invitations. */
export function useOpenInvites(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: memorialKeys.manage('session', memorialId, 'invites'),
    queryFn: ({ signal }) =>
      client.post(
        apiPaths.invitesQuery(),
        { memorialId, status: 'pending', limit: 100 },
        { schema: inviteQueryResultSchema, signal },
      ),
  });
}

function useRefresh(memorialId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: memorialKeys.all('session', memorialId) });
}

/** POST /core/guest-invite/{memorialId}: a Dutch mail with the link /uitnodiging/{code}. */
export function useInvite(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: (input: InviteCreate) =>
      client.post(apiPaths.inviteCreate(memorialId), input, { schema: inviteSentSchema }),
    onSuccess: refresh,
  });
}

/** POST /core/guest-invite/{id}/resend: a new code and 14 more days. */
export function useResendInvite(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: (id: string) =>
      client.post(apiPaths.inviteResend(id), undefined, { schema: inviteSentSchema }),
    onSuccess: refresh,
  });
}

/** DELETE /core/guest-invite/{id} */
export function useRevokeInvite(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: (id: string) => client.delete(apiPaths.invite(id)),
    onSuccess: refresh,
  });
}

/** PUT /core/memorial/users/role */
export function useSetRole(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: MemberRole }) =>
      client.put(apiPaths.memberRole(), { memberId, role }, { schema: memberSchema }),
    onSuccess: refresh,
  });
}

/** DELETE /core/memorial/users/{id} */
export function useRemoveMember(memorialId: string) {
  const client = useApiClient();
  const refresh = useRefresh(memorialId);
  return useMutation({
    mutationFn: (memberId: string) => client.delete(apiPaths.member(memberId)),
    onSuccess: refresh,
  });
}
