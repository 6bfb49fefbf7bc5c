import { describe, expect, it } from 'vitest';
import { namesFromSearch, withNames } from './names.ts';

describe('names in the create flow', () => {
  it('carries both names through the query, trimmed', () => {
    expect(namesFromSearch(new URLSearchParams('firstName=%20Johanna%20&lastName=de%20Vries'))).toEqual({
      firstName: 'Johanna',
      lastName: 'de Vries',
    });
    expect(withNames('/verify-memorial', { firstName: 'Jan', lastName: 'van der Berg' })).toBe(
      '/verify-memorial?firstName=Jan&lastName=van+der+Berg',
    );
  });

  it('has no names when either is missing or blank', () => {
    expect(namesFromSearch(new URLSearchParams('firstName=Jan'))).toBeNull();
    expect(namesFromSearch(new URLSearchParams('firstName=Jan&lastName=%20'))).toBeNull();
  });
});
