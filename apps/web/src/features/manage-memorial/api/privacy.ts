import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  accessCodeMailedSchema,
  accessCodeRegeneratedSchema,
  apiPaths,
  type Memorial,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** POST /core/memorial/{id}/access-code/regenerate: the old code and every guest token made with it stop working. */
export function useRegenerateCode(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      client.post(apiPaths.accessCodeRegenerate(memorialId), undefined, {
        schema: accessCodeRegeneratedSchema,
      }),
    onSuccess: (result) =>
      queryClient.setQueryData<Memorial>(
        memorialKeys.detail('session', memorialId),
        (m) => m && { ...m, accessCode: result.accessCode, accessCodeVersion: result.accessCodeVersion },
      ),
  });
}

/** POST /core/memorial/{id}/access-code/mail: the code and a one-time link, by mail. */
export function useMailCode(memorialId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: (input: { email: string; name?: string | null }) =>
      client.post(apiPaths.accessCodeMail(memorialId), input, { schema: accessCodeMailedSchema }),
  });
}
