import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { ApiClientProvider } from '../api-client.ts';
import { readGuestToken } from '../guest-token.ts';

/**
 * Whose eyes a memorial is seen through. Normally the session's ('session': the user's token, else the
 * guest token). A signed-in visitor who is not a member but holds a guest token for this memorial sees it
 * as a guest: that subtree gets its own API client and its own query keys.
 */
export type ViewerScope = 'session' | 'guest';

const ScopeContext = createContext<ViewerScope>('session');

export function useViewerScope(): ViewerScope {
  return useContext(ScopeContext);
}

export function GuestScope({ children }: { children: ReactNode }) {
  const getToken = useCallback(() => readGuestToken(), []);
  return (
    <ScopeContext.Provider value="guest">
      <ApiClientProvider getToken={getToken}>{children}</ApiClientProvider>
    </ScopeContext.Provider>
  );
}
