import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type Configuration } from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

export interface StandInUser {
  email: string;
  name: string;
  emailVerified?: boolean;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A real, second OpenID Connect provider on loopback that plays Google in tests: discovery, JWKS,
 * authorization code flow, ID tokens with sub/email/email_verified/name. Its one screen asks which
 * "Google account" to use (e-mail and name), so a browser test signs in like a person would.
 */
export async function startGoogleStandIn(opts: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  port?: number;
}) {
  const users = new Map<string, StandInUser>();
  const subOf = (email: string) =>
    `google-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const store = new Map<string, AdapterPayload>();
  // Kept in memory on purpose: the stand-in lives as long as one test run.
  class MemoryAdapter implements Adapter {
    private readonly model: string;
    constructor(model: string) {
      this.model = model;
    }
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: AdapterPayload) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(([k, p]) => k.startsWith(`${this.model}:`) && p.uid === uid)?.[1];
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const p = store.get(this.key(id));
      if (p) p.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, p] of store) if (p.grantId === grantId) store.delete(k);
    }
  }
  const configuration: Configuration = {
    adapter: MemoryAdapter,
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: 'stand-in', alg: 'RS256', use: 'sig' }] as NonNullable<
        Configuration['jwks']
      >['keys'],
    },
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['google-stand-in-test-key'] },
    async findAccount(_ctx, sub) {
      const user = [...users.values()].find((u) => subOf(u.email) === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: user.email,
          email_verified: user.emailVerified ?? true,
          name: user.name,
        }),
      };
    },
    async loadExistingGrant(ctx) {
      const { oidc } = ctx;
      if (!oidc.session?.accountId || !oidc.client) return undefined;
      const grant = new oidc.provider.Grant({
        clientId: oidc.client.clientId,
        accountId: oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  server.on('request', (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec((req.url ?? '').split('?')[0]!);
    if (!match) return void callback(req, res);
    const uid = match[1]!;
    if (req.method === 'GET') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="nl"><head><meta charset="utf-8"><title>Google (test)</title></head><body>
<h1>Kies een Google-account</h1>
<form method="post" action="/interaction/${esc(uid)}">
<label for="email">E-mailadres (Google)</label><input id="email" name="email" type="email">
<label for="name">Naam (Google)</label><input id="name" name="name" type="text">
<button type="submit">Doorgaan met Google</button>
</form></body></html>`);
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const email = form.get('email') ?? '';
      const user = {
        email,
        name: form.get('name') || email.split('@')[0]!,
        emailVerified: form.get('unverified') !== '1',
      };
      users.set(email.toLowerCase(), user);
      provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: subOf(email) } },
          { mergeWithLastSubmission: false },
        )
        .catch(() => {
          res.statusCode = 400;
          res.end('interaction failed');
        });
    });
  });

  return {
    issuer,
    port,
    subOf,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
