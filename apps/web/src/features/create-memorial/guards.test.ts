import { describe, expect, it } from 'vitest';
import { nextStepAfterNames, protectMemorialRedirect, verifyMemorialRedirect } from './guards.ts';
import { namesFromSearch } from './names.ts';

const names = { firstName: 'Johanna', lastName: 'de Vries' };
const query = '?firstName=Johanna&lastName=de+Vries';

describe('create flow guards', () => {
  it('/create-memorial: Volgende goes to /verify-memorial when signed in, else /protect-memorial, with both names', () => {
    expect(nextStepAfterNames(names, 'authenticated')).toBe(`/verify-memorial${query}`);
    expect(nextStepAfterNames(names, 'unauthenticated')).toBe(`/protect-memorial${query}`);
    expect(nextStepAfterNames(names, 'loading')).toBe(`/protect-memorial${query}`);
  });

  it('/protect-memorial: without either name back to /create-memorial', () => {
    for (const search of ['', 'firstName=Johanna', 'lastName=de+Vries', 'firstName=%20&lastName=de+Vries']) {
      const missing = namesFromSearch(new URLSearchParams(search));
      expect(protectMemorialRedirect(missing, 'unauthenticated')).toBe('/create-memorial');
      expect(protectMemorialRedirect(missing, 'loading')).toBe('/create-memorial');
    }
  });

  it('/protect-memorial: signed in already goes to /verify-memorial with the names, or /create-memorial without', () => {
    expect(protectMemorialRedirect(names, 'authenticated')).toBe(`/verify-memorial${query}`);
    expect(protectMemorialRedirect(null, 'authenticated')).toBe('/create-memorial');
  });

  it('/protect-memorial: a signed-out visitor with names stays (and so does one whose session is loading)', () => {
    expect(protectMemorialRedirect(names, 'unauthenticated')).toBeNull();
    expect(protectMemorialRedirect(names, 'loading')).toBeNull();
  });

  it('/verify-memorial: without either name back to /create-memorial, whatever the session', () => {
    for (const auth of ['authenticated', 'unauthenticated', 'loading'] as const) {
      expect(verifyMemorialRedirect(null, auth)).toBe('/create-memorial');
    }
  });

  it('/verify-memorial: signed out goes to /protect-memorial with the names; signed in (or loading) stays', () => {
    expect(verifyMemorialRedirect(names, 'unauthenticated')).toBe(`/protect-memorial${query}`);
    expect(verifyMemorialRedirect(names, 'authenticated')).toBeNull();
    expect(verifyMemorialRedirect(names, 'loading')).toBeNull();
  });
});
