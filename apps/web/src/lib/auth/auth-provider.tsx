import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from '../toast.ts';
import { AuthContext, type AuthState } from './auth-context.ts';
import { hasStoredSession, markedReturnUrl } from './oidc-config.ts';
import type { BridgeState, OidcSession } from './oidc-session.tsx';

type OidcModule = typeof import('./oidc-session.tsx');
interface Loaded {
  module: OidcModule;
  session: OidcSession;
}

const startFailed = (err: unknown) => {
  console.error('Het inloggen kon niet starten', err);
  toast.error('Inloggen mislukt', 'Er is een fout opgetreden bij het inloggen');
};

/** The address carries the confirmation page's mark (never while rendering on the server). */
const signInMarked = () => typeof window !== 'undefined' && markedReturnUrl(window.location) !== undefined;

/**
 * The app's session. The identity client (oidc-client-ts + react-oidc-context) is imported only when someone
 * signs in or a stored session exists; everyone else gets a signed-out state without loading it.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [state, setState] = useState<BridgeState>(() => ({
    // A link back from the confirmation page signs in at once (below): loading until it has.
    status: hasStoredSession() || signInMarked() ? 'loading' : 'unauthenticated',
    user: null,
  }));
  const loading = useRef<Promise<Loaded> | null>(null);

  const load = useCallback(() => {
    loading.current ??= import('./oidc-session.tsx').then((module) => {
      const value = { module, session: module.createOidcSession() };
      setLoaded(value);
      return value;
    });
    return loading.current;
  }, []);

  useEffect(() => {
    // Back from the mailed confirmation link (in a new tab, so without this tab's stored session): sign in
    // at once. The provider's session in this browser lets that pass without a password.
    const returnUrl = markedReturnUrl(window.location);
    if (returnUrl !== undefined) {
      window.history.replaceState(window.history.state, '', returnUrl);
      if (!hasStoredSession()) {
        void load()
          .then(({ session }) => session.signIn({ returnUrl }))
          .catch(startFailed);
        return;
      }
    }
    if (hasStoredSession()) void load();
  }, [load]);

  const value = useMemo<AuthState>(
    () => ({
      status: state.status,
      user: state.user,
      signIn: (options) =>
        load()
          .then(({ session }) => session.signIn(options))
          .catch(startFailed),
      register: (options) =>
        load()
          .then(({ session }) => session.register(options))
          .catch(startFailed),
      signOut: (options) =>
        load()
          .then(({ session }) => session.signOut(options))
          .catch((err: unknown) => console.error('Het uitloggen kon niet starten', err)),
      getAccessToken: async () => {
        if (!loading.current && !hasStoredSession()) return null;
        return (await load()).session.getAccessToken();
      },
      completeSignIn: () => load().then(({ session }) => session.completeSignIn()),
      completeSignOut: () => load().then(({ session }) => session.completeSignOut()),
    }),
    [state, load],
  );

  const Bridge = loaded?.module.OidcBridge;
  return (
    <AuthContext.Provider value={value}>
      {children}
      {Bridge && loaded && <Bridge session={loaded.session} onChange={setState} />}
    </AuthContext.Provider>
  );
}
