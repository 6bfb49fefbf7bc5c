import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ApiClientProvider } from '../../lib/api-client.ts';
import { AuthContext } from '../../lib/auth/auth-context.ts';
import { testAuth } from '../../lib/auth/test-auth.ts';
import ProtectMemorialPage from './protect-memorial-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The server's answer to GET /core/account/sign-in-methods. */
function renderWith(google: boolean) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    expect(String(input)).toContain('/core/account/sign-in-methods');
    return new Response(JSON.stringify({ google }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  const auth = testAuth();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ApiClientProvider getToken={() => null}>
        <AuthContext.Provider value={auth}>
          <MemoryRouter initialEntries={['/protect-memorial?firstName=Wim&lastName=Kok']}>
            <ProtectMemorialPage />
          </MemoryRouter>
        </AuthContext.Provider>
      </ApiClientProvider>
    </QueryClientProvider>,
  );
  return { client, auth };
}

describe('/protect-memorial', () => {
  it('offers Google when the server has it set up', async () => {
    const { auth } = renderWith(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Inloggen met Google' }));
    expect(auth.signIn).toHaveBeenCalledWith(expect.objectContaining({ idpHint: 'google' }));
  });

  it('shows no Google button when Google is not set up (it would lead nowhere)', async () => {
    const { client } = renderWith(false);
    expect(await screen.findByRole('button', { name: 'Doorgaan met e-mail' })).toBeTruthy();
    await vi.waitFor(() => expect(client.getQueryState(['sign-in-methods'])?.status).toBe('success'));
    expect(screen.queryByRole('button', { name: 'Inloggen met Google' })).toBeNull();
    expect(screen.queryByText('of')).toBeNull();
  });
});
