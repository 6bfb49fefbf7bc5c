import * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import type { AccountService } from './account-service.ts';
import type { IdentityRepository } from './repository.ts';

const STATE_TTL_SECONDS = 10 * 60;

export const googleMessages = {
  unavailable: 'Inloggen met Google kan hier niet. Log in met je e-mailadres en wachtwoord.',
  failed: 'Inloggen met Google is mislukt. Probeer het opnieuw of log in met je e-mailadres en wachtwoord.',
  cancelled: 'Inloggen met Google is afgebroken.',
} as const;

/**
 * Federation to Google (or whatever GOOGLE_ISSUER names; tests use a local stand-in) with openid-client:
 * authorization code flow with PKCE, state and nonce kept in the database against one interaction.
 */
export function googleFederation(deps: {
  config: Config;
  repo: IdentityRepository;
  accounts: AccountService;
}) {
  const { config, repo, accounts } = deps;
  const redirectUri = `${config.OIDC_AUTHORITY}/broker/google/endpoint`;
  let discovered: Promise<oidc.Configuration> | undefined;

  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(config.GOOGLE_ISSUER),
        config.GOOGLE_CLIENT_ID!,
        config.GOOGLE_CLIENT_SECRET!,
        undefined,
        config.GOOGLE_ISSUER.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  };

  return {
    enabled: config.googleEnabled,
    redirectUri,

    /** The URL to send the browser to; the interaction is continued by `callback`. */
    async start(interactionUid: string, loginHint?: string): Promise<URL> {
      const cfg = await configuration();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      await repo.insertFederationState({
        state,
        interactionUid,
        codeVerifier,
        nonce,
        ttlSeconds: STATE_TTL_SECONDS,
      });
      return oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
    },

    /**
     * Handles Google's redirect: exchanges the code, links or creates the account and records the outcome
     * on the state row. Returns the interaction to continue, or undefined for an unknown/expired state.
     */
    async callback(
      query: Record<string, string | undefined>,
    ): Promise<{ interactionUid: string; state: string } | undefined> {
      const state = query.state;
      if (!state) return undefined;
      const row = await repo.findFederationState(state);
      if (!row || row.expired || row.consumed || row.accountId || row.error) return undefined;
      const done = { interactionUid: row.interactionUid, state };
      if (query.error) {
        await repo.completeFederationState(state, { error: googleMessages.cancelled });
        return done;
      }
      try {
        const cfg = await configuration();
        const currentUrl = new URL(redirectUri);
        for (const [k, v] of Object.entries(query)) if (v !== undefined) currentUrl.searchParams.set(k, v);
        const tokens = await oidc.authorizationCodeGrant(cfg, currentUrl, {
          pkceCodeVerifier: row.codeVerifier,
          expectedState: state,
          expectedNonce: row.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error('no id_token claims');
        const result = await accounts.federated({
          sub: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
          emailVerified: claims.email_verified === true || claims.email_verified === 'true',
          name: typeof claims.name === 'string' ? claims.name : undefined,
        });
        await repo.completeFederationState(
          state,
          result.ok ? { accountId: result.account.id } : { error: result.message },
        );
      } catch {
        await repo.completeFederationState(state, { error: googleMessages.failed });
      }
      return done;
    },
  };
}

export type GoogleFederation = ReturnType<typeof googleFederation>;
