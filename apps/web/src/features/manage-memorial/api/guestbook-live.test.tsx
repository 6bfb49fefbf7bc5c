import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiClientProvider } from '../../../lib/api-client.ts';
import { useGuestbookLive } from './guestbook.ts';

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <ApiClientProvider getToken={async () => 'token'}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </ApiClientProvider>
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
    // Through the API client: the path below /core, with the bearer token.
    expect(fetch).toHaveBeenCalledWith(
      `/core/memorial/${memorialId}/guestbook/stream`,
      expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer token' }) }),
    );
    // Past the 3 seconds after which a dropped stream is tried again.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(result.current).toBe(false);
  });
});
