import { useMutation } from '@tanstack/react-query';
import { apiPaths, memorialConceptResultSchema, type DeceasedNames } from '@aandenken/contract';
import { useApiClient, type ApiClient } from '../../../lib/api-client.ts';

/**
 * POST /core/memorial/concept. The idempotency key makes a repeated request (a double click, a retry after a
 * lost answer) return the same page instead of a second one.
 */
export function createMemorialConcept(client: ApiClient, names: DeceasedNames, idempotencyKey: string) {
  return client.post(apiPaths.memorialConcept(), names, {
    schema: memorialConceptResultSchema,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateMemorialConcept() {
  const client = useApiClient();
  return useMutation({
    mutationFn: ({ names, idempotencyKey }: { names: DeceasedNames; idempotencyKey: string }) =>
      createMemorialConcept(client, names, idempotencyKey),
  });
}
