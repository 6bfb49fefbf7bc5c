import { useMutation } from '@tanstack/react-query';
import { apiPaths } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialSchemas } from '../../../lib/memorials/queries.ts';

/** The one-time link of an invitation or access mail: `/memorial/{id}#gasttoken=…`. */
export function linkTokenFromHash(hash: string): string | null {
  const match = /^#gasttoken=([A-Za-z0-9_-]{16,200})$/.exec(hash);
  return match ? match[1]! : null;
}

/** POST /core/guest/token-consume: the link's token for a guest token (it works once). */
export function useConsumeLink() {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (token: string) =>
      client.post(
        apiPaths.guestTokenConsume(),
        { token },
        { schema: (await memorialSchemas()).guestTokenSchema },
      ),
  });
}
