import { OIDC_CLIENT_ID, OIDC_REALM_PATH } from '@aandenken/contract';

/**
 * Where the identity provider lives: VITE_OIDC_AUTHORITY at build time (a Keycloak realm), else the embedded
 * provider on this origin. Kept free of oidc-client-ts so pages can ask "is there a session?" cheaply.
 */
export function oidcAuthority(): string {
  const configured = import.meta.env.VITE_OIDC_AUTHORITY as string | undefined;
  return (configured || `${window.location.origin}${OIDC_REALM_PATH}`).replace(/\/+$/, '');
}

/** oidc-client-ts keeps the signed-in user in session storage under this key (spec §3). */
export const userStorageKey = () => `oidc.user:${oidcAuthority()}:${OIDC_CLIENT_ID}`;

export function hasStoredSession(): boolean {
  try {
    return window.sessionStorage.getItem(userStorageKey()) !== null;
  } catch {
    return false;
  }
}

/** Only paths on this site are followed after signing in or out (no open redirects). */
export function safeReturnUrl(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.startsWith('/\\')
  )
    return '/';
  return value;
}
