import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Memorial, Subscription } from '@aandenken/contract';
import { ApiClientProvider } from '../../../lib/api-client.ts';
import { SubscriptionsSection } from './subscriptions-section.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const signUp = (over: Partial<Subscription>): Subscription => ({
  id: '0b7e5f0e-8d8a-4a43-9d0a-3c2f1e4d5a60',
  email: 'tante@example.nl',
  name: null,
  via: 'code',
  kinds: ['messages', 'birthday'],
  createdAt: '2026-03-01T10:00:00.000Z',
  confirmedAt: '2026-03-01T10:05:00.000Z',
  hasAccess: true,
  ...over,
});

/** The section with the app's own client, talking to `server` as a stand-in for the API. */
function renderWith(server: (method: string, url: string) => Response) {
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) =>
    server(init?.method ?? 'GET', String(url)),
  );
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ApiClientProvider getToken={() => 'token'}>
        <SubscriptionsSection memorial={{ id: memorialId } as Memorial} />
      </ApiClientProvider>
    </QueryClientProvider>,
  );
  return fetch;
}

describe('<SubscriptionsSection>', () => {
  it('lists who signed up, how and when, marks those without access, and removes one after confirming', async () => {
    const gone = signUp({
      id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      email: 'oud@example.nl',
      hasAccess: false,
    });
    let list = [signUp({ name: 'Tante Jet' }), gone];
    const fetch = renderWith((method, url) => {
      if (method === 'DELETE') {
        list = list.filter((s) => !url.endsWith(s.id));
        return json(200, { id: gone.id, removed: true });
      }
      return json(200, { subscriptions: list });
    });

    const items = within(await screen.findByRole('list', { name: 'Aanmeldingen' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Tante Jet (tante@example.nl)');
    expect(items[0]!.textContent).toContain(
      'Met de toegangscode · aangemeld op 1 maart 2026 · berichten van de familie, herinnering op de verjaardag',
    );
    expect(items[0]!.textContent).not.toContain('geen toegang');
    expect(items[1]!.textContent).toContain('Heeft geen toegang meer en krijgt niets');

    fireEvent.click(screen.getByRole('button', { name: 'Aanmelding van oud@example.nl verwijderen' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Aanmelding verwijderen?' });
    expect(dialog.textContent).toContain('Naar oud@example.nl gaan dan geen berichten');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verwijderen' }));

    await waitFor(() => expect(screen.queryByText(/oud@example\.nl/)).toBeNull());
    const deletes = fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes.map(([url]) => String(url))).toEqual([
      expect.stringContaining(`/core/memorial/${memorialId}/subscriptions/${gone.id}`),
    ]);
  });

  it('says so when nobody signed up', async () => {
    renderWith(() => json(200, { subscriptions: [] }));
    expect(await screen.findByText('Nog niemand heeft zich aangemeld.')).toBeTruthy();
  });
});
