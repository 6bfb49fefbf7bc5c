import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, biographySchema } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** PUT /core/memorial/biography: the server keeps only the allowed structure and answers with what it kept. */
export function useSaveBiography(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (html: string) =>
      client.put(apiPaths.biography(), { memorialId, html }, { schema: biographySchema }),
    onSuccess: (bio) => queryClient.setQueryData(memorialKeys.biography('session', memorialId), bio),
  });
}
