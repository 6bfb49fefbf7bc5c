import { readGuestToken } from '../guest-token.ts';

/** What the browser may know from the stored guest token (a JWT): which memorial it opens and until when. */
export interface GuestAccess {
  token: string;
  memorialId: string;
  expiresAt: Date;
  /** The name from an invitation, when the token came with one. */
  name: string | null;
  expired: boolean;
}

function decodePayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Reads the stored guest token's claims for display decisions only (the server verifies the token).
 * Null when there is no token or it is not a guest token.
 */
export function parseGuestToken(token: string | null, now = Date.now()): GuestAccess | null {
  if (!token) return null;
  const claims = decodePayload(token);
  if (!claims || typeof claims.mid !== 'string' || typeof claims.exp !== 'number') return null;
  const expiresAt = new Date(claims.exp * 1000);
  return {
    token,
    memorialId: claims.mid,
    expiresAt,
    name: typeof claims.name === 'string' ? claims.name : null,
    expired: expiresAt.getTime() <= now,
  };
}

export function readGuestAccess(): GuestAccess | null {
  return parseGuestToken(readGuestToken());
}
