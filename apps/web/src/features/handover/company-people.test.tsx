import { describe, expect, it } from 'vitest';
import type { HandoverMember } from '@aandenken/contract';
import { keeps } from './company-people.tsx';

const member = (companyUser: boolean): HandoverMember => ({
  memberId: crypto.randomUUID(),
  name: 'Kees',
  email: 'kees@example.nl',
  role: 'guest',
  invitedByName: 'Anna',
  companyUser,
  joinedAt: '2026-11-01T10:00:00.000Z',
});

describe('whom the family keeps at the handover', () => {
  it('keeps the people the company invited and lets its own users go, unless the family chose', () => {
    const relative = member(false);
    const colleague = member(true);
    expect(keeps(relative, {})).toBe(true);
    expect(keeps(colleague, {})).toBe(false);
    expect(keeps(relative, { [relative.memberId]: false })).toBe(false);
    expect(keeps(colleague, { [colleague.memberId]: true })).toBe(true);
  });
});
