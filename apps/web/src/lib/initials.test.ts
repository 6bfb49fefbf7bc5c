import { describe, expect, it } from 'vitest';
import { initials } from './initials.ts';

describe('initials', () => {
  it('takes the first and last name’s first letters, or a single name’s first two', () => {
    expect(initials('Marieke Jansen')).toBe('MJ');
    expect(initials('  anna de vries ')).toBe('AV');
    expect(initials('Fleur')).toBe('FL');
    expect(initials(' ')).toBe('?');
  });
});
