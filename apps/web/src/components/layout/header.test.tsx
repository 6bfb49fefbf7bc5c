import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AccountRoles } from '@aandenken/contract';
import { AuthContext, type AuthState } from '../../lib/auth/auth-context.ts';
import { testAuth } from '../../lib/auth/test-auth.ts';
import { ApiClientProvider } from '../../lib/api-client.ts';
import { Header } from './header.tsx';

const noRoles: AccountRoles = { team: false, companies: [] };

function renderHeader(auth: Partial<AuthState>, path = '/contact?x=1', roles: AccountRoles = noRoles) {
  const value = testAuth(auth);
  const router = createMemoryRouter([{ path: '*', element: <Header /> }], { initialEntries: [path] });
  // The account menu asks GET /core/account/roles; this answers it.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(roles)),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiClientProvider getToken={async () => 'token'}>
        <AuthContext.Provider value={value}>
          <RouterProvider router={router} />
        </AuthContext.Provider>
      </ApiClientProvider>
    </QueryClientProvider>,
  );
  return value;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('header', () => {
  it('signed out: a Login button that signs in and returns to the current path and query', () => {
    const auth = renderHeader({});
    const nav = screen.getByRole('navigation', { name: 'Hoofdmenu' });
    expect(within(nav).getByRole('link', { name: 'Maak een pagina' }).getAttribute('href')).toBe(
      '/create-memorial',
    );
    expect(within(nav).getByRole('link', { name: 'Bezoek besloten Pagina' }).getAttribute('href')).toBe(
      '/beslotenpagina',
    );
    expect(within(nav).getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('/contact');
    expect(screen.queryByRole('link', { name: "Mijn Pagina's" })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Inloggen' }));
    expect(auth.signIn).toHaveBeenCalledWith({ returnUrl: '/contact?x=1' });
  });

  // First of the signed-in tests: the menu's module is loaded once per file.
  it('signed in: the account menu loads once the browser is idle, before anyone reaches for it', async () => {
    renderHeader({
      status: 'authenticated',
      user: { sub: 'u1', name: 'Marieke de Wit', email: 'marieke@example.test' },
    });
    const name = 'MW, account van Marieke de Wit';
    // At first the placeholder (no Radix state)…
    expect(screen.getByRole('button', { name }).getAttribute('data-state')).toBeNull();
    // …then, with no pointer or focus on it, the real trigger, closed.
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name }).getAttribute('data-state')).toBe('closed'),
    );
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it("signed in: \"Mijn Pagina's\" and an avatar menu with name, e-mail and 'Uitloggen'", async () => {
    const auth = renderHeader({
      status: 'authenticated',
      user: { sub: 'u1', name: 'Marieke de Wit', email: 'marieke@example.test' },
    });
    expect(screen.queryByRole('button', { name: 'Inloggen' })).toBeNull();
    expect(screen.getByRole('link', { name: "Mijn Pagina's" }).getAttribute('href')).toBe('/mijn-paginas');
    const trigger = screen.getByRole('button', { name: 'MW, account van Marieke de Wit' });
    expect(trigger.textContent).toBe('MW');
    // Radix opens its menu from the keyboard as well as the pointer.
    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Marieke de Wit')).toBeTruthy();
    expect(within(menu).getByText('marieke@example.test')).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Uitloggen' }));
    expect(auth.signOut).toHaveBeenCalledWith({ returnUrl: '/contact?x=1' });
  });

  it("shows the team 'Partneraanvragen' and a company's user 'Partner' in the account menu", async () => {
    renderHeader(
      { status: 'authenticated', user: { sub: 'u1', name: 'Team Lid', email: 'team@example.test' } },
      '/',
      {
        team: true,
        companies: [
          {
            id: '00000000-0000-4000-8000-000000000001',
            slug: 'de-linde',
            name: 'De Linde',
            state: 'active',
            isAdmin: true,
          },
        ],
      },
    );
    fireEvent.keyDown(screen.getByRole('button', { name: 'TL, account van Team Lid' }), { key: 'Enter' });
    const menu = await screen.findByRole('menu');
    expect(
      (await within(menu).findByRole('menuitem', { name: 'Partneraanvragen' })).getAttribute('href'),
    ).toBe('/team/aanvragen');
    expect(within(menu).getByRole('menuitem', { name: 'Partner' }).getAttribute('href')).toBe('/partner');
  });
});
