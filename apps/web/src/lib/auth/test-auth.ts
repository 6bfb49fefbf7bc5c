import { vi } from 'vitest';
import type { AuthState } from './auth-context.ts';

/** For tests: an AuthContext value, signed out unless `overrides` says otherwise, with spies for its actions. */
export function testAuth(overrides: Partial<AuthState> = {}): AuthState {
  return {
    status: 'unauthenticated',
    user: null,
    signIn: vi.fn(async () => {}),
    register: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    getAccessToken: vi.fn(async () => null),
    ...overrides,
  };
}
