import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  companyResponseSchema,
  teamApplicationsSchema,
  teamCompaniesSchema,
  teamCompanySchema,
  teamMembersSchema,
} from '@aandenken/contract';
import { useApiClient } from '../../lib/api-client.ts';

const applicationsKey = ['team', 'applications'] as const;
const companiesKey = ['team', 'companies'] as const;

export function useApplications(enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: applicationsKey,
    enabled,
    queryFn: ({ signal }) =>
      client.get(apiPaths.teamApplications(), { schema: teamApplicationsSchema, signal }),
  });
}

export function useCompanies(enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: companiesKey,
    enabled,
    queryFn: ({ signal }) => client.get(apiPaths.teamCompanies(), { schema: teamCompaniesSchema, signal }),
  });
}

/** Approve or reject (with a reason) an application; both lists change. */
export function useDecision() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { id: string; reason?: string }) =>
      d.reason === undefined
        ? client.post(apiPaths.teamApprove(d.id), undefined, { schema: companyResponseSchema })
        : client.post(apiPaths.teamReject(d.id), { reason: d.reason }, { schema: companyResponseSchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: applicationsKey });
      void queryClient.invalidateQueries({ queryKey: companiesKey });
    },
  });
}

export function useCompanyState() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { id: string; suspend: boolean }) =>
      client.post(d.suspend ? apiPaths.teamSuspend(d.id) : apiPaths.teamRestore(d.id), undefined, {
        schema: teamCompanySchema,
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: companiesKey }),
  });
}

const membersKey = ['team', 'members'] as const;

export function useTeamMembers() {
  const client = useApiClient();
  return useQuery({
    queryKey: membersKey,
    queryFn: ({ signal }) => client.get(apiPaths.teamMembers(), { schema: teamMembersSchema, signal }),
  });
}

export function useGrantTeam() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      client.post(apiPaths.teamMembers(), { email }, { schema: teamMembersSchema }),
    onSuccess: (data) => queryClient.setQueryData(membersKey, data),
  });
}

export function useRevokeTeam() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => client.delete(apiPaths.teamMember(email)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: membersKey }),
  });
}
