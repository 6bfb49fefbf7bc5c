// The identity client. Loaded on demand only (see auth-provider.tsx): oidc-client-ts and react-oidc-context
// never reach the entry chunk, so pages that nobody signs in on stay light.
import { useEffect, useRef } from 'react';
import {
  ErrorResponse,
  OidcClient,
  UserManager,
  WebStorageStateStore,
  type SigninSilentArgs,
  type User,
  type UserManagerSettings,
} from 'oidc-client-ts';
import { AuthProvider as OidcProvider, useAuth as useOidc } from 'react-oidc-context';
import {
  ACCESS_TOKEN_EXPIRING_NOTIFICATION_S,
  CHECK_SESSION_INTERVAL_MS,
  OIDC_CLIENT_ID,
  SILENT_REQUEST_TIMEOUT_S,
  STALE_STATE_AGE_S,
  routes,
} from '@aandenken/contract';
import type { AuthUser, SignInOptions } from './auth-context.ts';
import { oidcAuthority, safeReturnUrl } from './oidc-config.ts';
import { clearAllDrafts } from '../draft-store.ts';

const RENEW_LOCK = 'aandenken-oidc-renew';
/** The embedded provider's extra parameter (identity/return-path.ts); an external realm ignores it. */
const RETURN_PARAM = 'aandenken_return';
const SPENT_REFRESH_TOKENS = 'aandenken-oidc-spent-refresh-tokens';
const SPENT_REMEMBERED = 20;

interface SignInState {
  returnUrl?: string;
  isRegistration?: boolean;
}

async function fingerprint(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Fingerprints (never the tokens) of refresh tokens this browser already spent, shared by all tabs. */
function spentRefreshTokens(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SPENT_REFRESH_TOKENS) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function rememberSpent(print: string) {
  try {
    localStorage.setItem(
      SPENT_REFRESH_TOKENS,
      JSON.stringify([print, ...spentRefreshTokens()].slice(0, SPENT_REMEMBERED)),
    );
  } catch {
    // Storage full or blocked: renewals still work, only the cross-tab guard is weaker.
  }
}

let localQueue: Promise<unknown> = Promise.resolve();
/** One renewal at a time across all tabs of this browser (navigator.locks), or in this tab without it. */
function withRenewLock<T>(fn: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks?.request) {
    return navigator.locks.request(RENEW_LOCK, fn) as Promise<T>;
  }
  const run = localQueue.then(fn, fn);
  localQueue = run.catch(() => undefined);
  return run;
}

const isInvalidGrant = (err: unknown) => err instanceof ErrorResponse && err.error === 'invalid_grant';

/**
 * Renewals are serialised: the provider rotates refresh tokens and revokes the whole session when one is
 * used twice (reuse detection). A tab duplicated from another shares its refresh token; when that token was
 * already spent by the other tab, this one renews through the silent-callback iframe instead.
 */
export class SerialisedUserManager extends UserManager {
  override async signinSilent(args: SigninSilentArgs = {}): Promise<User | null> {
    const before = await this.getUser();
    return withRenewLock(async () => {
      const current = await this.getUser();
      if (current && before && current.access_token !== before.access_token && !current.expired)
        return current;
      let forceIframeAuth = args.forceIframeAuth ?? false;
      if (!forceIframeAuth && current?.refresh_token) {
        const print = await fingerprint(current.refresh_token);
        if (spentRefreshTokens().includes(print)) forceIframeAuth = true;
        else rememberSpent(print);
      }
      try {
        return await super.signinSilent({ ...args, forceIframeAuth });
      } catch (err) {
        if (!forceIframeAuth && current?.refresh_token && isInvalidGrant(err)) {
          return super.signinSilent({ ...args, forceIframeAuth: true });
        }
        throw err;
      }
    });
  }
}

export function toAuthUser(user: User): AuthUser {
  const p = user.profile;
  const email = typeof p.email === 'string' ? p.email : '';
  const name =
    (typeof p.name === 'string' && p.name) ||
    (typeof p.preferred_username === 'string' && p.preferred_username) ||
    email;
  return { sub: p.sub, name, email };
}

function settings(): UserManagerSettings {
  const origin = window.location.origin;
  return {
    authority: oidcAuthority(),
    client_id: OIDC_CLIENT_ID,
    redirect_uri: `${origin}${routes.authCallback}`,
    silent_redirect_uri: `${origin}/silent-callback.html`,
    post_logout_redirect_uri: `${origin}${routes.logoutCallback}`,
    response_type: 'code',
    scope: 'openid profile email',
    loadUserInfo: false,
    automaticSilentRenew: true,
    accessTokenExpiringNotificationTimeInSeconds: ACCESS_TOKEN_EXPIRING_NOTIFICATION_S,
    silentRequestTimeoutInSeconds: SILENT_REQUEST_TIMEOUT_S,
    staleStateAgeInSeconds: STALE_STATE_AGE_S,
    // Session monitoring needs a check-session iframe the embedded provider does not offer; the interval is
    // kept for a realm that has one.
    monitorSession: false,
    checkSessionIntervalInSeconds: CHECK_SESSION_INTERVAL_MS / 1000,
    // Signing out revokes the refresh token itself (below): JWT access tokens cannot be revoked, and a failed
    // revocation must not keep anyone signed in.
    revokeTokensOnSignout: false,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  };
}

export interface OidcSession {
  manager: SerialisedUserManager;
  signIn(options?: SignInOptions): Promise<void>;
  register(options: SignInOptions & { returnUrl: string }): Promise<void>;
  signOut(options?: { returnUrl?: string }): Promise<void>;
  completeSignIn(): Promise<string>;
  completeSignOut(): Promise<string>;
  getAccessToken(): Promise<string | null>;
}

export function createOidcSession(): OidcSession {
  const manager = new SerialisedUserManager(settings());
  let signInDone: Promise<string> | undefined;
  let signOutDone: Promise<string> | undefined;

  manager.events.addSilentRenewError(() => {
    // A failed silent renew ends the signed-in state: a stale session must not look signed in.
    void manager.removeUser();
  });

  return {
    manager,

    async signIn(options = {}) {
      const returnUrl = safeReturnUrl(options.returnUrl ?? currentPath());
      const state: SignInState = { returnUrl };
      await manager.signinRedirect({
        state,
        login_hint: options.loginHint,
        // The return path goes to the provider too: a registration from the login screen carries it into
        // the confirmation mail (and an invitation's or handover's link counts as proof of the address).
        extraQueryParams: {
          [RETURN_PARAM]: returnUrl,
          ...(options.idpHint ? { kc_idp_hint: options.idpHint } : {}),
        },
      });
    },

    /** Keycloak's registrations endpoint (the embedded provider has it too), with the same request. */
    async register(options) {
      const metadata = await manager.metadataService.getMetadata();
      const authorization =
        metadata.authorization_endpoint ?? `${oidcAuthority()}/protocol/openid-connect/auth`;
      const client = new OidcClient({
        ...manager.settings,
        metadata: { ...metadata, authorization_endpoint: authorization.replace(/\/auth$/, '/registrations') },
      });
      const returnUrl = safeReturnUrl(options.returnUrl);
      const state: SignInState = { returnUrl, isRegistration: true };
      const request = await client.createSigninRequest({
        state,
        login_hint: options.loginHint,
        request_type: 'si:r',
        extraQueryParams: { [RETURN_PARAM]: returnUrl },
      });
      window.location.assign(request.url);
    },

    async signOut(options = {}) {
      // Drafts are this person's own unsaved text: the next one to use this browser should not find them.
      clearAllDrafts();
      await manager.revokeTokens(['refresh_token']).catch(() => undefined);
      await manager.signoutRedirect({
        state: { returnUrl: safeReturnUrl(options.returnUrl ?? currentPath()) },
      });
    },

    completeSignIn() {
      signInDone ??= manager
        .signinRedirectCallback()
        .then((user) => safeReturnUrl((user.state as SignInState | undefined)?.returnUrl));
      return signInDone;
    },

    completeSignOut() {
      signOutDone ??= manager
        .signoutRedirectCallback()
        .then((res) => safeReturnUrl((res?.userState as { returnUrl?: string } | undefined)?.returnUrl))
        .finally(() => manager.removeUser());
      return signOutDone;
    },

    async getAccessToken() {
      let user = await manager.getUser();
      if (!user) return null;
      if (user.expired || (user.expires_in ?? 0) < 5) {
        try {
          user = await manager.signinSilent();
        } catch {
          return null;
        }
      }
      return user?.access_token ?? null;
    },
  };
}

const currentPath = () => `${window.location.pathname}${window.location.search}`;

export interface BridgeState {
  status: 'loading' | 'authenticated' | 'unauthenticated';
  user: AuthUser | null;
}

/** Follows react-oidc-context's state and reports it to the app's own AuthContext. */
function Reporter({ session, onChange }: { session: OidcSession; onChange: (state: BridgeState) => void }) {
  const oidc = useOidc();
  const renewing = useRef(false);
  const expired = !!oidc.user?.expired;

  useEffect(() => {
    // A stored session whose access token ran out while the page was closed: renew it once before deciding.
    if (!oidc.isLoading && expired && !renewing.current) {
      renewing.current = true;
      session.manager
        .signinSilent()
        .catch(() => session.manager.removeUser())
        .finally(() => {
          renewing.current = false;
        });
    }
  }, [oidc.isLoading, expired, session]);

  useEffect(() => {
    if (oidc.isLoading || (expired && oidc.user?.refresh_token)) onChange({ status: 'loading', user: null });
    else if (oidc.user && !expired) onChange({ status: 'authenticated', user: toAuthUser(oidc.user) });
    else onChange({ status: 'unauthenticated', user: null });
  }, [oidc.isLoading, oidc.user, expired, onChange]);

  return null;
}

export function OidcBridge({
  session,
  onChange,
}: {
  session: OidcSession;
  onChange: (state: BridgeState) => void;
}) {
  return (
    <OidcProvider userManager={session.manager} skipSigninCallback>
      <Reporter session={session} onChange={onChange} />
    </OidcProvider>
  );
}
