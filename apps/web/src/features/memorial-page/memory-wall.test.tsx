import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Memorial, Memory } from '@aandenken/contract';
import { ApiClientProvider } from '../../lib/api-client.ts';
import { MemoryWall } from './components/memory-wall.tsx';
import type { Viewer } from './viewer.ts';

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const memory = (n: number): Memory => ({
  id: `6a0c7a52-5d3e-4c1b-9a57-${String(n).padStart(12, '0')}`,
  memorialId,
  yearLabel: `Jaar ${n}`,
  text: `Herinnering ${n}`,
  status: 'published',
  membersOnly: false,
  author: { kind: 'user', name: `Schrijver ${n}`, isYou: false },
  media: [],
  lovedBy: { count: 0, byMe: false, initials: [] },
  canEdit: false,
  canDelete: false,
  publishedAt: '2024-01-01T00:00:00.000Z',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
});
const memorial = { id: memorialId, firstName: 'Johanna' } as Memorial;
const visitor: Viewer = {
  canManage: false,
  canAddMemory: false,
  canLightCandle: true,
  canLove: false,
  isGuestVisit: false,
  defaultName: '',
};

/** An IntersectionObserver the test drives: `scrollNear()` tells every observer its element came near. */
let observers: IntersectionObserverCallback[] = [];
const scrollNear = () =>
  act(() =>
    observers.forEach((cb) =>
      cb([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
    ),
  );

beforeEach(() => {
  observers = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(cb: IntersectionObserverCallback) {
        observers.push(cb);
      }
      observe() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The wall's API: three pages of memories (12, 12, 2), newest first, behind keyset cursors. */
function wallApi() {
  const all = Array.from({ length: 26 }, (_, i) => memory(26 - i));
  const bodies: { cursor?: string | null; limit: number }[] = [];
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { cursor?: string | null; limit: number };
    bodies.push(body);
    const start = body.cursor ? Number(body.cursor) : 0;
    const items = all.slice(start, start + body.limit);
    const next = start + body.limit < all.length ? String(start + body.limit) : null;
    return new Response(JSON.stringify({ items, nextCursor: next }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return { fetch, bodies };
}

function renderWall(fetch: typeof globalThis.fetch) {
  // The app's own client, talking to this stand-in for the server.
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ApiClientProvider getToken={() => null}>
        <MemoryWall memorial={memorial} viewer={visitor} onAddMemory={() => {}} />
      </ApiClientProvider>
    </QueryClientProvider>,
  );
}

describe('memory wall', () => {
  it('loads the next page when one scrolls near its end, and with the button', async () => {
    const api = wallApi();
    renderWall(api.fetch as unknown as typeof globalThis.fetch);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(screen.getAllByRole('article')[0]!.textContent).toContain('Herinnering 26');
    expect(api.bodies[0]).toEqual({ memorialId, limit: 12, cursor: null });

    await scrollNear();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(24));
    expect(api.bodies[1]).toEqual({ memorialId, limit: 12, cursor: '12' });

    fireEvent.click(screen.getByRole('button', { name: 'Meer laden' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(26));
    expect(screen.queryByRole('button', { name: 'Meer laden' })).toBeNull();
    expect(screen.getByText('Je hebt alle herinneringen gezien.')).toBeTruthy();
    expect(api.fetch).toHaveBeenCalledTimes(3);
  });

  it('keeps loading while its end stays near the screen after a page arrives', async () => {
    // A real observer answers once when it starts observing, then only on changes: here the end is near
    // from the start and stays near (a tall screen, a visitor waiting at the end).
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private readonly cb: IntersectionObserverCallback) {}
        observe() {
          queueMicrotask(() =>
            this.cb([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver),
          );
        }
        disconnect() {}
      },
    );
    const api = wallApi();
    renderWall(api.fetch as unknown as typeof globalThis.fetch);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(26));
    expect(api.bodies.map((b) => b.cursor)).toEqual([null, '12', '24']);
    expect(screen.getByText('Je hebt alle herinneringen gezien.')).toBeTruthy();
  });

  it('invites the first memory when the wall is empty, and says it when it cannot load', async () => {
    const empty = vi.fn(
      async () => new Response(JSON.stringify({ items: [], nextCursor: null }), { status: 200 }),
    );
    const view = renderWall(empty as unknown as typeof globalThis.fetch);
    await waitFor(() => expect(screen.getByText('Nog geen herinneringen')).toBeTruthy());
    expect(
      screen.getByText(/Hier verschijnen de herinneringen die familie en vrienden aan Johanna delen/),
    ).toBeTruthy();
    view.unmount();

    const failing = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 'INTERNAL_ERROR', message: 'Er ging iets mis.' }), {
          status: 500,
        }),
    );
    renderWall(failing as unknown as typeof globalThis.fetch);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'De herinneringen konden niet worden geladen. Er ging iets mis.',
      ),
    );
  });
});
