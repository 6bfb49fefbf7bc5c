import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  handoverAcceptedSchema,
  handoverMembersSchema,
  handoverPreviewSchema,
  type HandoverAccept,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys, myMemorialsKey } from '../../../lib/memorials/queries.ts';

/** GET /core/handover/{code}: the page to take over and the company that made it (404 when unknown). */
export function useHandoverPreview(code: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['handover', code],
    retry: false,
    queryFn: ({ signal }) => client.get(apiPaths.handover(code), { schema: handoverPreviewSchema, signal }),
  });
}

/**
 * GET /core/handover/{code}/members: whom the company invited, for the signed-in family before it
 * accepts (403 without a confirmed address, 409 for the company's own users).
 */
export function useHandoverMembers(code: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['handover', code, 'members'],
    enabled,
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.handoverMembers(code), { schema: handoverMembersSchema, signal }),
  });
}

/**
 * POST /core/handover/{code}/accept: the signed-in family becomes owner, with its choices; the answer
 * carries the page's new access code when one was made.
 */
export function useAcceptHandover(code: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (choices: HandoverAccept) =>
      client.post(apiPaths.handoverAccept(code), choices, { schema: handoverAcceptedSchema }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: myMemorialsKey }),
        queryClient.removeQueries({ queryKey: memorialKeys.root }),
      ]),
  });
}
