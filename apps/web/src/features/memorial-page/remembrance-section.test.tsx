import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { CandleMoment, Memorial } from '@aandenken/contract';
import { ApiClientProvider } from '../../lib/api-client.ts';
import RemembranceSection from './components/remembrance-section.tsx';

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const memorial = { id: memorialId, firstName: 'Johanna' } as Memorial;
const MINUTE = 60_000;
const moment = (n: number, from: number, to: number): CandleMoment => ({
  id: `6a0c7a52-5d3e-4c1b-9a57-${String(n).padStart(12, '0')}`,
  memorialId,
  date: '2026-11-28',
  startTime: '20:00',
  durationMinutes: 60,
  title: null,
  startsAt: new Date(Date.now() + from).toISOString(),
  endsAt: new Date(Date.now() + to).toISOString(),
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * The server's stand-in: the page's moments (one on now, one later), and the live stream answering with
 * `live` (a status, and for 200 the events it sends before it stays open).
 */
function api(live: { status: number; events?: (on: CandleMoment) => string }) {
  const on = moment(1, -10 * MINUTE, 50 * MINUTE);
  const later = moment(2, 24 * 60 * MINUTE, 25 * 60 * MINUTE);
  const streams: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    if (url.includes('/candle-moments/live')) {
      streams.push(url);
      if (live.status !== 200)
        return new Response(JSON.stringify({ code: 'MEMORIAL_NOT_FOUND', message: 'Niet gevonden.' }), {
          status: live.status,
          headers: { 'content-type': 'application/json' },
        });
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(live.events?.(on) ?? ''));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    }
    return new Response(JSON.stringify({ moments: [on, later], days: [] }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return { streams };
}

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ApiClientProvider getToken={() => null}>
        <RemembranceSection memorial={memorial} />
      </ApiClientProvider>
    </QueryClientProvider>,
  );
}

describe('the kaarsjesmoment on the memorial page', () => {
  it('opens one live stream for the page view, naming the page view so the server counts people', async () => {
    const server = api({
      status: 200,
      events: (on) => `event: state\ndata: ${JSON.stringify({ moment: on, candles: [], together: 3 })}\n\n`,
    });
    renderSection();
    expect(await screen.findByText('3 mensen steken nu samen een kaarsje aan')).toBeTruthy();
    expect(server.streams).toHaveLength(1);
    expect(server.streams[0]).toMatch(
      new RegExp(`/memorial/${memorialId}/candle-moments/live\\?client=[0-9a-f-]{36}$`),
    );
  });

  it('does not connect again once the stream answers 404 (the page was made private)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = api({ status: 404 });
    renderSection();
    await waitFor(() => expect(server.streams).toHaveLength(1));
    // Past the 5 seconds after which a broken connection is tried again.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.streams).toHaveLength(1);
  });
});
