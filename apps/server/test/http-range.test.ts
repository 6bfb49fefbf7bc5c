import { describe, expect, it } from 'vitest';
import { byteRange } from '../src/lib/http-range.ts';

describe('byteRange (the Range header of media and presentation files)', () => {
  it('reads a single range, an open end and a suffix', () => {
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-500', 1000)).toEqual({ start: 500, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });

  it('answers no header, another unit and several ranges with the whole file', () => {
    expect(byteRange(undefined, 1000)).toBeNull();
    expect(byteRange('', 1000)).toBeNull();
    expect(byteRange('items=0-5', 1000)).toBeNull();
    expect(byteRange('bytes=0-9,20-29', 1000)).toBeNull();
    expect(byteRange('bytes=0-9,5000-', 1000)).toBeNull();
  });

  it('calls a range past the end, reversed, empty or malformed unsatisfiable', () => {
    for (const h of ['bytes=1000-', 'bytes=5-2', 'bytes=-0', 'bytes=abc', 'bytes=-'])
      expect(byteRange(h, 1000), h).toBe('unsatisfiable');
    expect(byteRange('bytes=-1', 0)).toBe('unsatisfiable');
  });
});
