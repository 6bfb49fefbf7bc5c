import { parse } from 'range-parser';

/**
 * The part of a file of `size` bytes that a `Range` header asks for: null for the whole file (no header,
 * another unit, or several ranges, which we answer with the whole file rather than a multipart body),
 * 'unsatisfiable' for a single range that is malformed, reversed or past the end (answered with 416).
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const parsed = parse(size, header);
  if (parsed.type !== 'bytes' || header.includes(',')) return null;
  const [range] = parsed.ranges;
  return parsed.ranges.length === 1 && range ? { start: range.start, end: range.end } : 'unsatisfiable';
}
