import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AuthContext, type AuthState } from '../../lib/auth/auth-context.ts';
import { testAuth } from '../../lib/auth/test-auth.ts';
import { useSignInRequired } from './sign-in-required.ts';

function Page({ enabled }: { enabled?: boolean }) {
  const auth = useSignInRequired({ enabled });
  return <p>{auth.status}</p>;
}

function renderPage(auth: AuthState, enabled?: boolean) {
  const router = createMemoryRouter([{ path: '*', element: <Page enabled={enabled} /> }], {
    initialEntries: ['/memorial/m1/beheer/media?tab=1'],
  });
  const ui = (value: AuthState) => (
    <AuthContext.Provider value={value}>
      <RouterProvider router={router} />
    </AuthContext.Provider>
  );
  const view = render(ui(auth));
  return { rerender: (value: AuthState) => view.rerender(ui(value)) };
}

afterEach(cleanup);

describe('useSignInRequired', () => {
  it('signed out: sends the visitor to sign in once, back to the same path and query', () => {
    const auth = testAuth();
    const view = renderPage(auth);
    expect(auth.signIn).toHaveBeenCalledWith({ returnUrl: '/memorial/m1/beheer/media?tab=1' });
    // A new session object (the provider re-renders) does not start a second sign-in.
    view.rerender({ ...auth });
    expect(auth.signIn).toHaveBeenCalledTimes(1);
  });

  it('waits while the session is loading and lets a signed-in person in', () => {
    const auth = testAuth({ status: 'loading' });
    const view = renderPage(auth);
    view.rerender({ ...auth, status: 'authenticated' });
    expect(auth.signIn).not.toHaveBeenCalled();
  });

  it('stands down when the page ends the session itself', () => {
    const auth = testAuth();
    renderPage(auth, false);
    expect(auth.signIn).not.toHaveBeenCalled();
  });
});
