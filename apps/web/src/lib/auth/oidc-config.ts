import { OIDC_CLIENT_ID, OIDC_REALM_PATH } from '@aandenken/contract';

/**
 * Where the identity provider lives: VITE_OIDC_AUTHORITY at build time (a Keycloak realm), else the embedded
 * provider on this origin. Kept free of oidc-client-ts so pages can ask "is there a session?" cheaply.
 */
export function oidcAuthority(): string {
  const configured = import.meta.env.VITE_OIDC_AUTHORITY as string | undefined;
  return (configured || `${window.location.origin}${OIDC_REALM_PATH}`).replace(/\/+$/, '');
}

/** oidc-client-ts keeps the signed-in user in session storage under this key. */
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
    value.includes('\\') ||
    // Browsers drop tabs and line breaks from addresses: '/\t/host' would become '//host'.
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(value)
  )
    return '/';
  return value;
}

/** The mark the confirmation page puts on its link back: sign in at once, then go on to that page. */
export const SIGN_IN_MARK = 'aanmelden';

/**
 * The current address when it carries the mark, without it (the place to return to after signing in);
 * undefined when there is no mark.
 */
export function markedReturnUrl(location: { pathname: string; search: string; hash: string }) {
  const query = new URLSearchParams(location.search);
  if (!query.has(SIGN_IN_MARK)) return undefined;
  query.delete(SIGN_IN_MARK);
  const search = query.toString();
  return safeReturnUrl(`${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}
