import type { ServerResponse } from 'node:http';

/** The CSP directives the web client's origins are added to on the identity provider's answers. */
const CLIENT_DIRECTIVES = ['form-action', 'frame-ancestors'] as const;

/**
 * The identity provider's answers carry the site's security headers (set on the raw response, see
 * lib/response-cache-plugin.ts); when the web client lives on another origin (APP_URL), that origin is
 * added where the provider must reach it: `form-action` (after a form post the browser is redirected on to
 * the client) and `frame-ancestors` (the client renews its tokens silently in a hidden frame).
 */
export const clientOriginWidener = (clientOrigins: readonly string[]) => (res: ServerResponse) => {
  const csp = res.getHeader('content-security-policy');
  if (typeof csp !== 'string') return;
  let widened = csp;
  for (const directive of CLIENT_DIRECTIVES) {
    widened = widened.replace(
      new RegExp(`${directive} ([^;]*)`),
      (_m, list: string) => `${directive} ${[...new Set([...list.split(' '), ...clientOrigins])].join(' ')}`,
    );
  }
  res.setHeader('content-security-policy', widened);
};
