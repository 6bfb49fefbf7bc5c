import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  carePageSchema,
  carePagesSchema,
  colleaguesSchema,
  type CarePageCreate,
  type Colleagues,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { accountRolesKey } from '../../../lib/account/roles.ts';

export const partnerKeys = {
  colleagues: (companyId: string) => ['partner', companyId, 'colleagues'] as const,
  pages: (companyId: string) => ['partner', companyId, 'pages'] as const,
};

/** GET /core/companies/{id}/users: the colleagues, and for administrators the open invitations. */
export function useColleagues(companyId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: partnerKeys.colleagues(companyId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.companyUsers(companyId), { schema: colleaguesSchema, signal }),
  });
}

function useColleaguesMutation<V>(companyId: string, fn: (v: V) => Promise<Colleagues | undefined>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (data) =>
      data
        ? queryClient.setQueryData(partnerKeys.colleagues(companyId), data)
        : queryClient.invalidateQueries({ queryKey: partnerKeys.colleagues(companyId) }),
  });
}

export function useInviteColleague(companyId: string) {
  const client = useApiClient();
  return useColleaguesMutation(companyId, (email: string) =>
    client.post(apiPaths.companyInvitations(companyId), { email }, { schema: colleaguesSchema }),
  );
}

export function useRevokeInvitation(companyId: string) {
  const client = useApiClient();
  return useColleaguesMutation(companyId, async (invitationId: string) => {
    await client.delete(apiPaths.companyInvitation(companyId, invitationId));
    return undefined;
  });
}

export function useSetAdmin(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: string; isAdmin: boolean }) =>
      client.put(
        apiPaths.companyUser(companyId, v.userId),
        { isAdmin: v.isAdmin },
        { schema: colleaguesSchema },
      ),
    onSuccess: (data) =>
      Promise.all([
        queryClient.setQueryData(partnerKeys.colleagues(companyId), data),
        // The caller's own administrator flag may have changed.
        queryClient.invalidateQueries({ queryKey: accountRolesKey }),
      ]),
  });
}

export function useRemoveColleague(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => client.delete(apiPaths.companyUser(companyId, userId)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: partnerKeys.colleagues(companyId) }),
        queryClient.invalidateQueries({ queryKey: accountRolesKey }),
      ]),
  });
}

/** GET /core/companies/{id}/pages: the pages made for families, with state and counters. */
export function useCarePages(companyId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: partnerKeys.pages(companyId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.companyPages(companyId), { schema: carePagesSchema, signal }),
  });
}

export function useCreateCarePage(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CarePageCreate) =>
      client.post(apiPaths.companyPages(companyId), input, { schema: carePageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.pages(companyId) }),
  });
}

export function useResendCarePage(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memorialId: string) =>
      client.post(apiPaths.companyPageResend(companyId, memorialId), undefined, { schema: carePageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: partnerKeys.pages(companyId) }),
  });
}
