import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useAuth, type AuthState } from '../../lib/auth/auth-context.ts';

/**
 * The guard of every page that needs a signed-in person, called once at the top of the page: a signed-out
 * visitor is sent to sign in (once) and comes back to this address, path and query, afterwards. Until the
 * session is known the page shows its spinner (`status` is not 'authenticated').
 * `enabled: false` stands the guard down for a page that ends the session itself (deleting the account):
 * signing out there must not start a new sign-in.
 */
export function useSignInRequired({ enabled = true }: { enabled?: boolean } = {}): AuthState {
  const auth = useAuth();
  const { pathname, search } = useLocation();
  const redirecting = useRef(false);
  useEffect(() => {
    if (enabled && auth.status === 'unauthenticated' && !redirecting.current) {
      redirecting.current = true;
      void auth.signIn({ returnUrl: `${pathname}${search}` });
    }
  }, [auth, enabled, pathname, search]);
  return auth;
}
