import { describe, expect, it } from 'vitest';
import { codeFromHash } from './code-from-link.tsx';

describe('codeFromHash', () => {
  it('takes exactly eight digits from #code=', () => {
    expect(codeFromHash('#code=12345678')).toBe('12345678');
    expect(codeFromHash('#code=1234567')).toBeNull();
    expect(codeFromHash('#code=12345678x')).toBeNull();
    expect(codeFromHash('')).toBeNull();
  });
});
