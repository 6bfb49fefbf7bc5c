import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  memorialPlanSchema,
  paymentCreatedSchema,
  paymentSchema,
  type Payment,
  type PaidPlanId,
} from '@aandenken/contract';
import { useApiClient } from '../../lib/api-client.ts';

export const planKeys = {
  plan: (memorialId: string) => ['plans', memorialId] as const,
  payment: (paymentId: string) => ['payments', paymentId] as const,
};

/** GET /core/memorial/{id}/plan: trial, Basis or Premium, until when, read-only, memories left. */
export function useMemorialPlan(memorialId: string, enabled = true) {
  const client = useApiClient();
  return useQuery({
    queryKey: planKeys.plan(memorialId),
    enabled,
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.memorialPlan(memorialId), { schema: memorialPlanSchema, signal }),
  });
}

/**
 * Whether this server takes videos and music (it has ffmpeg), from the page's plan read; true until that
 * read says otherwise (the server refuses them anyway when it cannot).
 */
export function useVideoAndMusic(memorialId: string, enabled = true): boolean {
  return useMemorialPlan(memorialId, enabled).data?.videoAndMusic ?? true;
}

export interface PaymentInput {
  memorialId: string;
  plan: PaidPlanId;
  buyerName: string;
  buyerAddress: string;
  buyerPostalCode: string;
  buyerCity: string;
}

/** POST /core/payments: the payment at Mollie; answers the checkout address. */
export function useCreatePayment() {
  const client = useApiClient();
  return useMutation({
    mutationFn: (input: PaymentInput) =>
      client.post(apiPaths.payments(), input, { schema: paymentCreatedSchema }),
  });
}

const settled = (status: string) => !['open', 'pending', 'authorized'].includes(status);

/** GET /core/payments/{id}, asked again every 2 seconds (at most a minute) until Mollie has decided. */
export function usePayment(paymentId: string | null, memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useQuery<Payment>({
    queryKey: planKeys.payment(paymentId ?? ''),
    enabled: !!paymentId,
    retry: false,
    refetchInterval: (q) =>
      q.state.data && (settled(q.state.data.status) || q.state.dataUpdateCount > 30) ? false : 2000,
    queryFn: async ({ signal }) => {
      const payment = await client.get(apiPaths.payment(paymentId!), { schema: paymentSchema, signal });
      if (settled(payment.status))
        await queryClient.invalidateQueries({ queryKey: planKeys.plan(memorialId) });
      return payment;
    },
  });
}
