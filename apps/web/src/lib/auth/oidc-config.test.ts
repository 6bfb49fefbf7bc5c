import { afterEach, describe, expect, it } from 'vitest';
import {
  hasStoredSession,
  markedReturnUrl,
  oidcAuthority,
  safeReturnUrl,
  userStorageKey,
} from './oidc-config.ts';

afterEach(() => sessionStorage.clear());

describe('identity client configuration', () => {
  it('defaults to the embedded realm on this origin', () => {
    expect(oidcAuthority()).toBe(`${window.location.origin}/realms/aandenken`);
    expect(userStorageKey()).toBe(`oidc.user:${window.location.origin}/realms/aandenken:web`);
  });

  it('knows whether a stored session exists without loading the identity library', () => {
    expect(hasStoredSession()).toBe(false);
    sessionStorage.setItem(userStorageKey(), '{}');
    expect(hasStoredSession()).toBe(true);
  });

  it('follows only paths on this site after signing in or out', () => {
    expect(safeReturnUrl('/verify-memorial?firstName=Jan&lastName=Jansen')).toBe(
      '/verify-memorial?firstName=Jan&lastName=Jansen',
    );
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      '/x\\y',
      undefined,
      42,
    ]) {
      expect(safeReturnUrl(bad)).toBe('/');
    }
  });

  it('signs in at once on a link marked by the confirmation page, returning to it without the mark', () => {
    const at = (href: string) => new URL(href, 'http://localhost');
    expect(markedReturnUrl(at('/overnemen/abc?aanmelden=1'))).toBe('/overnemen/abc');
    expect(markedReturnUrl(at('/uitnodiging/abc?accepteren=1&aanmelden=1'))).toBe(
      '/uitnodiging/abc?accepteren=1',
    );
    expect(markedReturnUrl(at('/mijn-paginas'))).toBeUndefined();
  });
});
