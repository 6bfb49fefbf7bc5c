import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  futureMessageListSchema,
  futureMessageSchema,
  subscriptionListSchema,
  subscriptionRemovedSchema,
  type FutureMessage,
  type FutureMessageInput,
  type Subscription,
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

const signUpsKey = (memorialId: string) => ['subscriptions', memorialId] as const;

/** GET …/subscriptions: who signed up for 'Blijf verbonden' (confirmed), how and when. */
export function useSubscriptions(memorialId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: signUpsKey(memorialId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.memorialSubscriptions(memorialId), { schema: subscriptionListSchema, signal }),
  });
}

/** DELETE …/subscriptions/{id}; the messages' count of addresses changes with it. */
export function useRemoveSubscription(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: Subscription) =>
      client.delete(apiPaths.memorialSubscription(memorialId, s.id), { schema: subscriptionRemovedSchema }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: signUpsKey(memorialId) }),
        queryClient.invalidateQueries({ queryKey: key(memorialId) }),
      ]);
    },
  });
}
