import { routes, type DeceasedNames } from '@aandenken/contract';
import type { AuthState } from '../../lib/auth/auth-context.ts';
import { withNames } from './names.ts';

type AuthStatus = AuthState['status'];

/** Where "Volgende" on /create-memorial leads: straight to confirming when signed in. */
export function nextStepAfterNames(names: DeceasedNames, auth: AuthStatus): string {
  return withNames(auth === 'authenticated' ? routes.verifyMemorial : routes.protectMemorial, names);
}

/**
 * /protect-memorial: signed in already → /verify-memorial with the names (or /create-memorial without);
 * no names → /create-memorial. Null: stay (the page shows a spinner while the session is still loading).
 */
export function protectMemorialRedirect(names: DeceasedNames | null, auth: AuthStatus): string | null {
  if (auth === 'authenticated')
    return names ? withNames(routes.verifyMemorial, names) : routes.createMemorial;
  if (!names) return routes.createMemorial;
  return null;
}

/**
 * /verify-memorial: no names → /create-memorial; signed out → /protect-memorial with the names.
 * Null: stay (while loading the session is not known yet, so nobody is sent away).
 */
export function verifyMemorialRedirect(names: DeceasedNames | null, auth: AuthStatus): string | null {
  if (!names) return routes.createMemorial;
  if (auth === 'unauthenticated') return withNames(routes.protectMemorial, names);
  return null;
}
