import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiPaths, type GuestTokenCreate } from '@aandenken/contract';
import { useApiClient, type ApiClient } from '../../../lib/api-client.ts';

/** POST /core/guest/token: an access code for a guest token scoped to one memorial. */
export const guestTokenResultSchema = z.object({
  token: z.string().check(z.minLength(1)),
  memorialId: z.string().check(z.minLength(1)),
});
export type GuestTokenResult = z.infer<typeof guestTokenResultSchema>;

/** The code, the memorial a link named (if any) and a solved challenge (when the server asked for one). */
export type GuestTokenRequest = Pick<GuestTokenCreate, 'accessCode'> & {
  memorialId?: string | undefined;
  pow?: string | undefined;
};

export function requestGuestToken(client: ApiClient, request: GuestTokenRequest): Promise<GuestTokenResult> {
  const body: GuestTokenRequest = { accessCode: request.accessCode };
  if (request.memorialId) body.memorialId = request.memorialId;
  if (request.pow) body.pow = request.pow;
  return client.post(apiPaths.guestToken(), body, { schema: guestTokenResultSchema });
}

export function useRequestGuestToken() {
  const client = useApiClient();
  return useMutation({ mutationFn: (request: GuestTokenRequest) => requestGuestToken(client, request) });
}
