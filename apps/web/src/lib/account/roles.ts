import { useQuery } from '@tanstack/react-query';
import { apiPaths, type AccountRoles } from '@aandenken/contract';
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
    // Not parsed with the contract's schema: the account menu loads this, and zod would come with it.
    queryFn: ({ signal }) => client.get<AccountRoles>(apiPaths.accountRoles(), { signal }),
  });
}
