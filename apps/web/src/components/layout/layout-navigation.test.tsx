import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AuthContext } from '../../lib/auth/auth-context.ts';
import { testAuth } from '../../lib/auth/test-auth.ts';
import { ApiClientProvider } from '../../lib/api-client.ts';
import { MobileMenuSheet } from './mobile-menu-sheet.tsx';
import { RootLayout } from './root-layout.tsx';

function renderWith(router: ReturnType<typeof createMemoryRouter>) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiClientProvider getToken={async () => null}>
        <AuthContext.Provider value={testAuth()}>
          <RouterProvider router={router} />
        </AuthContext.Provider>
      </ApiClientProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
});

describe('after a navigation', () => {
  const pages = () =>
    createMemoryRouter(
      [
        {
          element: <RootLayout />,
          children: [
            { path: '/', element: <h1>Eerste pagina</h1> },
            { path: '/contact', element: <h1>Contactpagina</h1> },
            { path: '/prijzen', element: <h1>Prijzen</h1> },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );

  it('the new page starts with focus at its top', async () => {
    const router = pages();
    renderWith(router);
    await act(() => router.navigate('/contact'));
    expect(screen.getByRole('heading', { name: 'Contactpagina' })).toBeTruthy();
    expect(document.activeElement?.id).toBe('main');
  });

  it('a menu or dialog the person opened while the page was loading keeps focus (and stays open)', async () => {
    const router = pages();
    renderWith(router);
    // A dialog opened before the new page commits (Radix puts it in a portal on the body).
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    button.textContent = 'Sluiten';
    dialog.append(button);
    document.body.append(dialog);
    button.focus();
    await act(() => router.navigate('/prijzen'));
    expect(screen.getByRole('heading', { name: 'Prijzen' })).toBeTruthy();
    expect(document.activeElement).toBe(button);
  });
});

describe('a page that fails', () => {
  function Broken(): never {
    throw new Error('kapot');
  }

  it('says what to do inside the layout, and another page works again', async () => {
    // React reports the caught error on the console; expected here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter(
      [
        {
          element: <RootLayout />,
          children: [
            { path: '/kapot', element: <Broken /> },
            { path: '/contact', element: <h1>Contactpagina</h1> },
          ],
        },
      ],
      { initialEntries: ['/kapot'] },
    );
    renderWith(router);
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: 'Er ging iets mis' })).toBeTruthy();
    expect(within(main).getByText(/Laad de pagina opnieuw/)).toBeTruthy();
    expect(within(main).getByRole('button', { name: 'Opnieuw laden' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    // The header still works: its menu leads to another page, which shows.
    const nav = screen.getByRole('navigation', { name: 'Hoofdmenu' });
    await act(async () => fireEvent.click(within(nav).getByRole('link', { name: 'Contact' })));
    expect(screen.getByRole('heading', { name: 'Contactpagina' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Er ging iets mis' })).toBeNull();
    // Back on the broken page, it is tried again (and fails again).
    await act(() => router.navigate('/kapot'));
    expect(screen.getByRole('heading', { name: 'Er ging iets mis' })).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

describe('the side menu on a phone', () => {
  const withSheet = () =>
    createMemoryRouter(
      [
        { path: '/', element: <MobileMenuSheet initialOpen /> },
        { path: '/contact', element: <MobileMenuSheet initialOpen /> },
      ],
      { initialEntries: ['/'] },
    );

  it('stays open when an earlier navigation commits after it was opened, and closes on back or forward', async () => {
    const router = withSheet();
    renderWith(router);
    expect(screen.getByRole('dialog')).toBeTruthy();
    // The route's element is the same component, kept: the location changes under the open sheet.
    await act(() => router.navigate('/contact'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    act(() => {
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes when one of its links is followed', async () => {
    const router = withSheet();
    renderWith(router);
    await act(async () => screen.getByRole('link', { name: 'Contact' }).click());
    expect(router.state.location.pathname).toBe('/contact');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
