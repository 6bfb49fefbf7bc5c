import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiClientProvider } from '../../lib/api-client.ts';
import { MemorialExportSection } from './export-panel.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('<MemorialExportSection>', () => {
  it('shows the server’s reason next to the button when the request is refused', async () => {
    const limit =
      'Er worden al genoeg exports van deze pagina gemaakt. Probeer het opnieuw als er een klaar is.';
    // The app's own client, talking to this stand-in for the server.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) =>
        init?.method === 'POST'
          ? json(429, { code: 'JOB_LIMIT_REACHED', message: limit })
          : json(200, {
              status: 'none',
              requestedAt: null,
              downloadUrl: null,
              expiresAt: null,
              sizeBytes: null,
            }),
      ),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ApiClientProvider getToken={() => null}>
          <MemorialExportSection memorialId={memorialId} />
        </ApiClientProvider>
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Export aanvragen' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(limit));
    // Nothing started: the button is there to try again later.
    expect(screen.getByRole('button', { name: 'Export aanvragen' })).toBeTruthy();
  });
});
