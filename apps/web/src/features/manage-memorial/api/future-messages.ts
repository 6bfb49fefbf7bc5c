import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  futureMessageListSchema,
  futureMessageSchema,
  type FutureMessage,
  type FutureMessageInput,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';

const key = (memorialId: string) => ['future-messages', memorialId] as const;

/** GET …/future-messages: the messages, the plan's limit and how many addresses one would reach now. */
export function useFutureMessages(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: key(memorialId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.futureMessages(memorialId), { schema: futureMessageListSchema, signal }),
  });
}

/** POST (new) or PUT (existing, still planned) a message. */
export function useSaveFutureMessage(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: FutureMessageInput }) =>
      id
        ? client.put(apiPaths.futureMessage(memorialId, id), input, { schema: futureMessageSchema })
        : client.post(apiPaths.futureMessages(memorialId), input, { schema: futureMessageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(memorialId) }),
  });
}

export function useCancelFutureMessage(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (m: FutureMessage) =>
      client.delete(apiPaths.futureMessage(memorialId, m.id), { schema: futureMessageSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key(memorialId) }),
  });
}
