import { useCallback, useState, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useAuth } from '../lib/auth/auth-context.ts';
import { AuthProvider } from '../lib/auth/auth-provider.tsx';
import { ApiClientProvider } from '../lib/api-client.ts';
import { readGuestToken } from '../lib/guest-token.ts';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The API client takes the user's token first and the visitor's guest token as fallback. */
function ApiClientFromAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const getToken = useCallback(async () => (await auth.getAccessToken()) ?? readGuestToken(), [auth]);
  return <ApiClientProvider getToken={getToken}>{children}</ApiClientProvider>;
}

/** `queryClient`: one made ahead, e.g. holding the data a server-rendered page was rendered with. */
export function AppProviders({
  children,
  queryClient: given,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ApiClientFromAuth>{children}</ApiClientFromAuth>
      </AuthProvider>
    </QueryClientProvider>
  );
}
