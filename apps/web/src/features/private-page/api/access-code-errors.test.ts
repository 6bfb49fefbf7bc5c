import { describe, expect, it } from 'vitest';
import { ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE } from '@aandenken/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { accessCodeErrorMessage, challengeOf, messages } from './access-code-errors.ts';

const challenge = {
  algorithm: 'SHA-256',
  challenge: 'ab',
  maxnumber: 100,
  salt: 's?expires=1&',
  signature: 'cd',
};

describe('access code errors', () => {
  it('finds the challenge in a CHALLENGE_REQUIRED answer, and nowhere else', () => {
    const asked = new ApiError(429, 'CHALLENGE_REQUIRED', 'Puzzel', undefined, {
      code: 'CHALLENGE_REQUIRED',
      message: 'Puzzel',
      challenge,
    });
    expect(challengeOf(asked)).toEqual(challenge);
    expect(challengeOf(new ApiError(429, 'RATE_LIMITED', 'Te veel'))).toBeNull();
    expect(
      challengeOf(new ApiError(429, 'CHALLENGE_REQUIRED', 'Puzzel', undefined, { challenge: 1 })),
    ).toBeNull();
    expect(challengeOf(new Error('x'))).toBeNull();
    // A challenge that could not be solved is told in Dutch.
    expect(accessCodeErrorMessage(asked)).toBe(messages.challengeFailed);
  });

  it('tells a locked page with the server’s message (which points to the invitation link)', () => {
    const locked = new ApiError(429, 'RATE_LIMITED', ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE);
    expect(accessCodeErrorMessage(locked)).toBe(ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE);
    expect(accessCodeErrorMessage(new ApiError(429, 'RATE_LIMITED', 'Te veel'))).toBe(messages.tooMany);
  });
});
