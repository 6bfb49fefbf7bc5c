import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  paymentSchema,
  teamMemorialPlanSchema,
  teamMemorialsSchema,
  type PlanId,
} from '@aandenken/contract';
import { useApiClient } from '../../lib/api-client.ts';

const planKey = (id: string) => ['team', 'memorial-plan', id] as const;

/** GET /core/team/memorials?q=: pages by name, address or number (team only). */
export function useTeamMemorialSearch(q: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: ['team', 'memorials', q],
    enabled: q.trim().length > 0,
    queryFn: ({ signal }) =>
      client.get(`${apiPaths.teamMemorials()}?q=${encodeURIComponent(q)}`, {
        schema: teamMemorialsSchema,
        signal,
      }),
  });
}

/** GET /core/team/memorials/{id}/plan: the plan, the trial, the payments and invoices. */
export function useTeamMemorialPlan(id: string | null) {
  const client = useApiClient();
  return useQuery({
    queryKey: planKey(id ?? ''),
    enabled: !!id,
    queryFn: ({ signal }) =>
      client.get(apiPaths.teamMemorialPlan(id!), { schema: teamMemorialPlanSchema, signal }),
  });
}

/** POST /core/team/memorials/{id}/plan: the plan by hand, with a reason (the page's audit log). */
export function useTeamSetPlan(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { plan: PlanId; paidUntil?: string; reason: string }) =>
      client.post(apiPaths.teamMemorialPlan(id), body, { schema: teamMemorialPlanSchema }),
    onSuccess: (data) => {
      queryClient.setQueryData(planKey(id), data);
      void queryClient.invalidateQueries({ queryKey: ['team', 'memorials'] });
    },
  });
}

/** POST /core/team/payments/{id}/refund: the whole amount back through Mollie, a credit invoice. */
export function useTeamRefund(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (d: { paymentId: string; reason: string }) =>
      client.post(apiPaths.teamPaymentRefund(d.paymentId), { reason: d.reason }, { schema: paymentSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: planKey(memorialId) }),
  });
}
