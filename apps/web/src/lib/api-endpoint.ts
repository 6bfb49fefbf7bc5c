import type * as z from 'zod/mini';
import { endpointPath, type Endpoint, type EndpointInput, type EndpointResponse } from '@aandenken/contract';
import type { ApiClient } from './api-client.ts';

/**
 * Calls an endpoint the contract describes (packages/contract/src/endpoint.ts) through the API client: the
 * path built from its parameters, the body typed as its schema accepts it, the answer parsed by its response
 * schema. Errors, the token and idempotency keys as for every call of the client.
 */
export function callEndpoint<E extends Endpoint>(
  client: ApiClient,
  e: E,
  input: EndpointInput<E>,
  options: { signal?: AbortSignal } = {},
): Promise<EndpointResponse<E>> {
  return client.request(e.method, endpointPath(e, input.params as Record<string, unknown> | undefined), {
    body: input.body,
    schema: e.response as z.ZodMiniType<EndpointResponse<E>>,
    signal: options.signal,
  });
}
