import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** What a masked secret reads as in the log. */
export const REDACTED = '[verborgen]';

/**
 * Query parameters that carry a secret (or a secret's key) and never belong in a log: the mailed reset and
 * verification links (`token`), OpenID Connect's codes, states, token hints and tokens (ours and Google's
 * on the way back), and the signature of a media link. `login_hint` is an e-mail address.
 */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'state',
  'id_token_hint',
  'id_token',
  'access_token',
  'refresh_token',
  'code_verifier',
  'client_secret',
  'logout_hint',
  'login_hint',
  'sig',
]);

/**
 * Path segments that are secrets: invite codes in the API's /guest-invite/invite-code/{code} and
 * /guest-invite/accept/{code}, and in the app's /uitnodiging/{code}. Access codes only travel in bodies,
 * which are not logged.
 */
const SECRET_SEGMENTS = [/(\/guest-invite\/(?:invite-code|accept)\/)[^/?#]+/g, /(\/uitnodiging\/)[^/?#]+/g];

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The URL as it may be logged: secret path segments and the values of secret query parameters masked. */
export function redactSecretsInUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const pattern of SECRET_SEGMENTS) path = path.replace(pattern, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && SECRET_PARAMS.has(paramName(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's request serializer with the URL masked. */
export const redactingRequestSerializer = (req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) => ({
  method: req.method,
  url: redactSecretsInUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/** The server's logger: credentials and secrets in headers and bodies removed, URLs masked. */
export function loggerOptions(
  config: Pick<Config, 'LOG_LEVEL'>,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'body.accessCode',
        'body.password',
        'body.token',
      ],
      remove: true,
    },
    serializers: { req: redactingRequestSerializer },
  };
}
