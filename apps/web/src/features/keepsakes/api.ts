import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  biographyAnswerSchema,
  biographySchema,
  biographyTemplateSchema,
  type BiographyAnswer,
} from '@aandenken/contract';
import { useApiClient } from '../../lib/api-client.ts';
import { memorialKeys } from '../../lib/memorials/queries.ts';

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
      client.get(apiPaths.biographyTemplate(memorialId), { schema: biographyTemplateSchema, signal }),
  });
}

/** PUT one answer (the autosave). */
export function useSaveAnswer(memorialId: string) {
  const client = useApiClient();
  return (questionKey: string, text: string): Promise<BiographyAnswer> =>
    client.put(
      apiPaths.biographyAnswer(memorialId, questionKey),
      { text },
      { schema: biographyAnswerSchema },
    );
}

/** POST …/generate: the answers become the biography (replace only when the family confirmed it). */
export function useGenerateBiography(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (replace: boolean) =>
      client.post(apiPaths.biographyGenerate(memorialId), { replace }, { schema: biographySchema }),
    onSuccess: (bio) => {
      queryClient.setQueryData(memorialKeys.biography('session', memorialId), bio);
      void queryClient.invalidateQueries({ queryKey: templateKey(memorialId) });
    },
  });
}
