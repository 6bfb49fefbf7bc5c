import { useMutation } from '@tanstack/react-query';
import { apiPaths, contactResultSchema, type ContactMessage } from '@aandenken/contract';
import { useApiClient, type ApiClient } from '../../../lib/api-client.ts';

/** POST /core/contact */
export function sendContactMessage(client: ApiClient, message: ContactMessage) {
  return client.post(apiPaths.contact(), message, { schema: contactResultSchema });
}

export function useSendContactMessage() {
  const client = useApiClient();
  return useMutation({ mutationFn: (message: ContactMessage) => sendContactMessage(client, message) });
}
