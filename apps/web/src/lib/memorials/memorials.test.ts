import { describe, expect, it } from 'vitest';
import { parseGuestToken } from './guest-access.ts';
import { initialsOf, lifeDescription, lifePlaces, lifeYears } from './life.ts';
import { memorialKeys } from './queries.ts';
import { formatBytes, formatRelative } from './time.ts';

/** base64url of UTF-8 JSON, as a JWT has it. */
const b64 = (o: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(o))))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const jwt = (claims: Record<string, unknown>) =>
  `${b64({ alg: 'HS256', typ: 'guest+jwt' })}.${b64(claims)}.c2ln`;

describe('parseGuestToken', () => {
  const now = Date.UTC(2024, 0, 1, 12);
  it('reads the memorial, expiry and name of a guest token', () => {
    const token = jwt({ mid: 'abc', exp: now / 1000 + 3600, name: 'Zoë' });
    expect(parseGuestToken(token, now)).toEqual({
      token,
      memorialId: 'abc',
      expiresAt: new Date(now + 3_600_000),
      name: 'Zoë',
      expired: false,
    });
  });
  it('knows when it expired', () => {
    expect(parseGuestToken(jwt({ mid: 'abc', exp: now / 1000 - 1 }), now)?.expired).toBe(true);
  });
  it('ignores anything that is not a guest token', () => {
    expect(parseGuestToken(null)).toBeNull();
    expect(parseGuestToken('not-a-jwt')).toBeNull();
    expect(parseGuestToken('a.@@@.c')).toBeNull();
    expect(parseGuestToken(jwt({ sub: 'user', exp: 1 }))).toBeNull();
  });
});

describe('life', () => {
  const m = {
    firstName: 'Johanna',
    lastName: 'de Vries',
    birthDate: '1941-05-02',
    deathDate: '2024-03-12',
    birthPlace: 'Lisse',
    deathPlace: 'Haarlem',
  };
  it('shows years, and what is known when something is missing', () => {
    expect(lifeYears(m)).toBe('1941 – 2024');
    expect(lifeYears({ birthDate: null, deathDate: '2024-03-12' })).toBe('† 2024');
    expect(lifeYears({ birthDate: '1941-05-02', deathDate: null })).toBe('* 1941');
    expect(lifeYears({ birthDate: null, deathDate: null })).toBeNull();
  });
  it('names both places only when they differ', () => {
    expect(lifePlaces(m)).toBe('Lisse – Haarlem');
    expect(lifePlaces({ birthPlace: 'Haarlem', deathPlace: 'Haarlem' })).toBe('Haarlem');
    expect(lifePlaces({ birthPlace: null, deathPlace: null })).toBeNull();
  });
  it('says it in full for screen readers', () => {
    expect(lifeDescription(m)).toBe('geboren 2 mei 1941 in Lisse, overleden 12 maart 2024 in Haarlem');
    expect(lifeDescription({ ...m, birthDate: null, birthPlace: null, deathPlace: null })).toBe(
      'overleden 12 maart 2024',
    );
  });
  it('makes initials from names with Dutch prefixes', () => {
    expect(initialsOf('Maarten de Vries')).toBe('MV');
    expect(initialsOf('Fleur')).toBe('F');
    expect(initialsOf('buren van nummer 12')).toBe('BN');
  });
});

describe('time and size', () => {
  const now = Date.UTC(2024, 5, 1, 12);
  it('says how long ago in Dutch', () => {
    expect(formatRelative(new Date(now - 20_000), now)).toBe('zojuist');
    expect(formatRelative(new Date(now - 5 * 60_000), now)).toBe('5 minuten geleden');
    expect(formatRelative(new Date(now - 3 * 3_600_000), now)).toBe('3 uur geleden');
    expect(formatRelative(new Date(now - 86_400_000), now)).toBe('gisteren');
    expect(formatRelative(new Date(Date.UTC(2024, 2, 12, 12)), now)).toBe('12 maart 2024');
  });
  it('writes file sizes', () => {
    expect(formatBytes(2.4 * 1024 * 1024)).toBe('2,4 MB');
    expect(formatBytes(840 * 1024)).toBe('840 kB');
  });
});

describe('memorialKeys', () => {
  it('starts every key of a memorial with its root, so invalidating the root reaches them all', () => {
    const root = memorialKeys.all('guest', 'm1');
    expect(root.slice(0, memorialKeys.root.length)).toEqual([...memorialKeys.root]);
    for (const key of [
      memorialKeys.detail('guest', 'm1'),
      memorialKeys.biography('guest', 'm1'),
      memorialKeys.gallery('guest', 'm1'),
      memorialKeys.wall('guest', 'm1'),
      memorialKeys.candles('guest', 'm1'),
      memorialKeys.manage('guest', 'm1', 'members'),
    ])
      expect(key.slice(0, root.length)).toEqual([...root]);
    expect(memorialKeys.all('session', 'm1')).not.toEqual(root);
  });
});
