import type { ServerResponse } from 'node:http';

/** After a form post the browser may be redirected on to the client (another origin when APP_URL differs). */
export const formActionWidener = (clientOrigins: readonly string[]) => (res: ServerResponse) => {
  const csp = res.getHeader('content-security-policy');
  if (typeof csp !== 'string') return;
  res.setHeader(
    'content-security-policy',
    csp.replace(
      /form-action ([^;]*)/,
      (_m, list: string) => `form-action ${[...new Set([...list.split(' '), ...clientOrigins])].join(' ')}`,
    ),
  );
};
