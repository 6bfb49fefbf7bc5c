import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { biographyHelpEndpoints as endpoints, type BiographyAnswer } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { callEndpoint } from '../../../lib/api-endpoint.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

const templateKey = (id: string) => memorialKeys.manage('session', id, 'biography-template');

/** GET /core/memorial/{id}/biography-template: the answers so far (owners, editors). */
export function useBiographyTemplate(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: templateKey(memorialId),
    enabled,
    retry: false,
    // The answers on screen are the truth while someone types; read them once per visit.
    staleTime: Infinity,
    queryFn: ({ signal }) =>
      callEndpoint(client, endpoints.template, { params: { id: memorialId } }, { signal }),
  });
}

/** PUT one answer (the autosave). */
export function useSaveAnswer(memorialId: string) {
  const client = useApiClient();
  return (questionKey: string, text: string): Promise<BiographyAnswer> =>
    callEndpoint(client, endpoints.saveAnswer, { params: { id: memorialId, questionKey }, body: { text } });
}

/** POST …/generate: the answers become the biography (replace only when the family confirmed it). */
export function useGenerateBiography(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (replace: boolean) =>
      callEndpoint(client, endpoints.generate, { params: { id: memorialId }, body: { replace } }),
    onSuccess: (bio) => {
      queryClient.setQueryData(memorialKeys.biography('session', memorialId), bio);
      void queryClient.invalidateQueries({ queryKey: templateKey(memorialId) });
    },
  });
}
