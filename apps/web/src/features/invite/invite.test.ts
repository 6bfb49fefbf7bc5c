import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { inviteProblem } from './invite-page.tsx';

describe('inviteProblem', () => {
  it('explains each way an invitation can stop working, in Dutch', () => {
    expect(inviteProblem(new ApiError(410, 'INVITE_EXPIRED', 'x')).title).toBe(
      'Deze uitnodiging is verlopen',
    );
    expect(inviteProblem(null, true).title).toBe('Deze uitnodiging is verlopen');
    expect(inviteProblem(new ApiError(410, 'INVITE_USED', 'x')).title).toBe(
      'Deze uitnodiging is al gebruikt',
    );
    expect(inviteProblem(new ApiError(404, 'INVITE_NOT_FOUND', 'x')).title).toBe(
      'Deze uitnodiging is niet meer geldig',
    );
    expect(inviteProblem(new ApiError(0, 'NETWORK_ERROR', 'Er is geen verbinding')).text).toBe(
      'Er is geen verbinding',
    );
  });
});
