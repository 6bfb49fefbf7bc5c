/**
 * Invite codes travel in URLs (the API's /guest-invite/invite-code/{code} and /guest-invite/accept/{code},
 * the app's /uitnodiging/{code}); request logs show them masked. Access codes only travel in bodies,
 * which are not logged.
 */
export function redactSecretsInUrl(url: string): string {
  return url
    .replace(/(\/guest-invite\/(?:invite-code|accept)\/)[^/?#]+/g, '$1[verborgen]')
    .replace(/(\/uitnodiging\/)[^/?#]+/g, '$1[verborgen]');
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
