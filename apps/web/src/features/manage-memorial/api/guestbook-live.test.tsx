import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthContext, type AuthState } from '../../../lib/auth/auth-context.ts';
import { useGuestbookLive } from './guestbook.ts';

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const auth = {
  status: 'authenticated',
  user: { sub: 'u1', name: 'Olga', email: 'olga@example.nl' },
  getAccessToken: async () => 'token',
} as unknown as AuthState;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <AuthContext.Provider value={auth}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </AuthContext.Provider>
  );
}

describe("the guestbook's live list", () => {
  it('does not connect again once the stream answers 404 (the caller was removed)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 'MEMORIAL_NOT_FOUND', message: 'Niet gevonden.' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => useGuestbookLive(memorialId, true), { wrapper });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    // Past the 3 seconds after which a dropped stream is tried again.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result.current).toBe(false);
  });
});
