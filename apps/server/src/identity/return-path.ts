import { routes } from '@aandenken/contract';

/** The authorization request's extra parameter: where the site sends the person after signing in. */
export const RETURN_PARAM = 'aandenken_return';

const MAX_LENGTH = 512;

/**
 * A path on the site itself, or undefined: only '/…' that stays on this origin (no '//host', no '/\host',
 * no scheme, no control characters), so no link of ours ever sends anyone elsewhere.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LENGTH) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const origin = 'http://aandenken.invalid';
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The code of an invitation or handover link the path opens (`/uitnodiging/{code}`, `/overnemen/{code}`):
 * the link was mailed to one address, so whoever comes from it holds that mailbox.
 */
export function inviteCodeIn(path: string | undefined): string | undefined {
  if (!path) return undefined;
  const pathname = path.split(/[?#]/, 1)[0]!;
  const [invite, handover] = [routes.invite('\u0000'), routes.handover('\u0000')].map((r) =>
    r.replace('\u0000', ''),
  );
  for (const prefix of [invite!, handover!]) {
    if (!pathname.startsWith(prefix)) continue;
    const code = pathname.slice(prefix.length);
    if (/^[A-Za-z0-9_-]{16,128}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Where the site goes after a confirmation: the path, marked so the site signs in at once (the provider's
 * session in this browser lets that pass without a password; elsewhere the login screen asks once).
 */
export function continueUrl(publicUrl: string, path: string | undefined): string {
  const url = new URL(path ?? routes.myPages, publicUrl);
  url.searchParams.set('aanmelden', '1');
  return `${publicUrl}${url.pathname}${url.search}${url.hash}`;
}
