import { useMutation, useQuery } from '@tanstack/react-query';
import {
  apiPaths,
  companyBillingSchema,
  paymentCreatedSchema,
  type CompanyBilling,
  type CompanyPaymentPurpose,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';

export const billingKey = (companyId: string) => ['partner', companyId, 'billing'] as const;

const open = (status: string) => ['open', 'pending', 'authorized'].includes(status);

/**
 * GET /core/companies/{id}/billing: the partnership, what is owed for the pages, the payments. Back from
 * Mollie's checkout (`paymentId`), asked again every 2 seconds (at most a minute) while that payment is open.
 */
export function useCompanyBilling(companyId: string, paymentId: string | null = null) {
  const client = useApiClient();
  return useQuery<CompanyBilling>({
    queryKey: billingKey(companyId),
    refetchInterval: (q) => {
      const p = paymentId ? q.state.data?.payments.find((x) => x.id === paymentId) : undefined;
      return p && open(p.status) && q.state.dataUpdateCount <= 30 ? 2000 : false;
    },
    queryFn: ({ signal }) =>
      client.get(apiPaths.companyBilling(companyId), { schema: companyBillingSchema, signal }),
  });
}

/** POST /core/companies/{id}/payments: the payment at Mollie; answers the checkout address. */
export function useCompanyPay(companyId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: (purpose: CompanyPaymentPurpose) =>
      client.post(apiPaths.companyPayments(companyId), { purpose }, { schema: paymentCreatedSchema }),
  });
}
