import { useQuery } from '@tanstack/react-query';
import { apiPaths, signInMethodsSchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';

/** GET /core/account/sign-in-methods: whether Google sign-in is set up (else its button would lead nowhere). */
export function useSignInMethods() {
  const client = useApiClient();
  return useQuery({
    queryKey: ['sign-in-methods'],
    staleTime: 5 * 60_000,
    queryFn: ({ signal }) => client.get(apiPaths.signInMethods(), { schema: signInMethodsSchema, signal }),
  });
}
