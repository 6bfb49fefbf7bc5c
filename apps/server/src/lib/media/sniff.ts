/**
 * What a file is by its first bytes (never by its name or declared type). Covers the types the
 * product accepts plus the near misses worth a precise answer (HEIC, QuickTime, Matroska).
 */
export type SniffedType =
  | 'image/jpeg'
  | 'image/png'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif'
  | 'image/heic'
  | 'video/mp4'
  | 'video/webm'
  | 'video/quicktime'
  | 'video/x-matroska';

/** How many leading bytes `sniff` needs. */
export const SNIFF_BYTES = 64;

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

const heifBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const avifBrands = new Set(['avif', 'avis']);
const mp4Brands = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'M4V ',
  'MSNV',
  'mmp4',
  'f4v ',
  '3gp4',
  '3gp5',
  '3gp6',
  '3g2a',
]);

/** ISO base media file (MP4, AVIF, HEIC, MOV): `....ftyp<major brand><minor version><compatible brands>`. */
function sniffIsoBmff(head: Buffer): SniffedType | null {
  if (head.length < 16 || ascii(head, 4, 8) !== 'ftyp') return null;
  const boxSize = head.readUInt32BE(0);
  const end = Math.min(boxSize >= 16 ? boxSize : 16, head.length);
  const brands = [ascii(head, 8, 12)];
  for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(head, i, i + 4));
  if (brands.some((b) => avifBrands.has(b))) return 'image/avif';
  if (brands.some((b) => heifBrands.has(b))) return 'image/heic';
  if (brands[0] === 'qt  ') return 'video/quicktime';
  if (brands.some((b) => mp4Brands.has(b))) return 'video/mp4';
  return null;
}

/** EBML (Matroska/WebM): the DocType element (0x42 0x82) names which. */
function sniffEbml(head: Buffer): SniffedType | null {
  if (head.length < 4 || head.readUInt32BE(0) !== 0x1a45dfa3) return null;
  const docTypeAt = head.indexOf(Buffer.from([0x42, 0x82]), 4);
  if (docTypeAt < 0 || docTypeAt + 3 > head.length) return null;
  const size = head[docTypeAt + 2]! & 0x7f; // a one-byte EBML size (0x80 | n), as every muxer writes it
  const docType = ascii(head, docTypeAt + 3, docTypeAt + 3 + size);
  if (docType === 'webm') return 'video/webm';
  if (docType === 'matroska') return 'video/x-matroska';
  return null;
}

export function sniff(head: Buffer): SniffedType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a'))
    return 'image/gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  return sniffIsoBmff(head) ?? sniffEbml(head);
}

const aliases: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
};

/** The declared type without parameters, lower case, common aliases folded. */
export function normaliseDeclaredType(declared: string | undefined): string {
  const base = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return aliases[base] ?? base;
}
