import { useMutation } from '@tanstack/react-query';
import { apiPaths, companyRequestResultSchema, type CompanyRequest } from '@aandenken/contract';
import { useApiClient, type ApiClient } from '../../../lib/api-client.ts';

/** Empty optional texts are left out; a service description only goes with the 'other' type. */
export function toCompanyRequest(values: CompanyRequest): CompanyRequest {
  const { serviceDescription, additionalInfo, extraInfo: _extra, ...rest } = values;
  return {
    ...rest,
    ...(values.companyType === 'OtherServiceProvider' && serviceDescription ? { serviceDescription } : {}),
    ...(additionalInfo ? { additionalInfo } : {}),
  };
}

/** POST /core/companies/request */
export function requestCompany(client: ApiClient, values: CompanyRequest) {
  return client.post(apiPaths.companyRequest(), toCompanyRequest(values), {
    schema: companyRequestResultSchema,
  });
}

export function useRequestCompany() {
  const client = useApiClient();
  return useMutation({ mutationFn: (values: CompanyRequest) => requestCompany(client, values) });
}
