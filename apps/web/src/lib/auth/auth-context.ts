import { createContext, useContext } from 'react';

export interface AuthUser {
  sub: string;
  name: string;
  email: string;
}

export interface SignInOptions {
  /** Path plus query to return to after signing in. */
  returnUrl?: string;
  loginHint?: string;
  /** 'google' federates through the identity provider (kc_idp_hint). */
  idpHint?: 'google';
}

/**
 * What the rest of the web app knows about the session. The identity feature provides the real value
 * (oidc-client-ts + react-oidc-context); this module has no dependency on it so that pages stay light.
 */
export interface AuthState {
  status: 'loading' | 'authenticated' | 'unauthenticated';
  user: AuthUser | null;
  signIn(options?: SignInOptions): Promise<void>;
  register(options: SignInOptions & { returnUrl: string }): Promise<void>;
  signOut(options?: { returnUrl?: string }): Promise<void>;
  /** A current access token (renewed when expired), or null when signed out. */
  getAccessToken(): Promise<string | null>;
  /** Finishes a sign-in on /auth/callback; resolves to the return URL (a path on this site). */
  completeSignIn?(): Promise<string>;
  /** Finishes a sign-out on /auth/logout-callback; resolves to the return URL. */
  completeSignOut?(): Promise<string>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
