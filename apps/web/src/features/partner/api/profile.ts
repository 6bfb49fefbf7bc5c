import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths, companyProfileSchema, type CompanyProfileInput } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';

export const profileKey = (companyId: string) => ['company-profile', companyId] as const;

/** GET /core/companies/{id}/profile */
export function useCompanyProfile(companyId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: profileKey(companyId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.companyProfile(companyId), { schema: companyProfileSchema, signal }),
  });
}

/** PUT /core/companies/{id}/profile: the whole profile at once. */
export function useSaveProfile(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CompanyProfileInput) =>
      client.put(apiPaths.companyProfile(companyId), input, { schema: companyProfileSchema }),
    onSuccess: (data) => queryClient.setQueryData(profileKey(companyId), data),
  });
}

/** POST (a new logo) or DELETE /core/companies/{id}/logo */
export function useLogo(companyId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return client.delete(apiPaths.companyLogo(companyId), { schema: companyProfileSchema });
      const form = new FormData();
      form.append('media', file);
      return client.upload(apiPaths.companyLogo(companyId), form, { schema: companyProfileSchema });
    },
    onSuccess: (data) => queryClient.setQueryData(profileKey(companyId), data),
  });
}
