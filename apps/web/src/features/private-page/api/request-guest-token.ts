import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiPaths } from '@aandenken/contract';
import { useApiClient, type ApiClient } from '../../../lib/api-client.ts';

/** POST /core/guest/token: an access code for a guest token scoped to one memorial. */
export const guestTokenResultSchema = z.object({
  token: z.string().check(z.minLength(1)),
  memorialId: z.string().check(z.minLength(1)),
});
export type GuestTokenResult = z.infer<typeof guestTokenResultSchema>;

export function requestGuestToken(client: ApiClient, accessCode: string): Promise<GuestTokenResult> {
  return client.post(apiPaths.guestToken(), { accessCode }, { schema: guestTokenResultSchema });
}

export function useRequestGuestToken() {
  const client = useApiClient();
  return useMutation({ mutationFn: (accessCode: string) => requestGuestToken(client, accessCode) });
}
