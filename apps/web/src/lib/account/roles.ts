import { useQuery } from '@tanstack/react-query';
import { accountRolesSchema, apiPaths } from '@aandenken/contract';
import { useApiClient } from '../api-client.ts';

export const accountRolesKey = ['account-roles'] as const;

/**
 * GET /core/account/roles: whether the signed-in user is on the team, and the companies they are a partner
 * user of (the first call after an approval, with a verified address, links the account to the company).
 */
export function useAccountRoles(enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: accountRolesKey,
    enabled,
    staleTime: 60_000,
    queryFn: ({ signal }) => client.get(apiPaths.accountRoles(), { schema: accountRolesSchema, signal }),
  });
}
