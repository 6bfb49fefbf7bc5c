/** The guest token a visitor gets for a private page. */
export const GUEST_TOKEN_KEY = 'aandenken-guest-token';

export function readGuestToken(): string | null {
  try {
    return localStorage.getItem(GUEST_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeGuestToken(token: string): void {
  localStorage.setItem(GUEST_TOKEN_KEY, token);
}
