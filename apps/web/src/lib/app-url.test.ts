import { describe, expect, it } from 'vitest';
import { appUrl } from './app-url.ts';

describe('appUrl', () => {
  it('is null on the same origin, so the router handles the link', () => {
    expect(appUrl('/mijn-paginas', undefined, 'https://aandenken.nl')).toBeNull();
    expect(appUrl('/mijn-paginas', '', 'https://aandenken.nl')).toBeNull();
    expect(appUrl('/mijn-paginas', 'https://aandenken.nl/', 'https://aandenken.nl')).toBeNull();
  });

  it('points to the app host when it lives apart', () => {
    expect(appUrl('/mijn-paginas', 'https://app.aandenken.nl/', 'https://aandenken.nl')).toBe(
      'https://app.aandenken.nl/mijn-paginas',
    );
    expect(appUrl('/memorial/abc', ' https://app.aandenken.nl ', 'https://aandenken.nl')).toBe(
      'https://app.aandenken.nl/memorial/abc',
    );
  });
});
