import type { Readable, Writable } from 'node:stream';

/**
 * The few parts of POSIX tar (ustar) a backup archive needs: regular files with names of at most 100
 * characters, written and read as a stream. Kept here rather than a dependency: the format is small and
 * the reader must tell a damaged or truncated archive apart from a whole one.
 */
const BLOCK = 512;

/** A damaged or incomplete archive: the caller turns it into a clear message. */
export class ArchiveError extends Error {}

function header(name: string, size: number, mtime: Date): Buffer {
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new Error(`tar entry name too long: ${name}`);
  const h = Buffer.alloc(BLOCK, 0);
  nameBytes.copy(h, 0);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0') + '\0';
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0' + '00', 257, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
  return h;
}

function write(out: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const ok = out.write(chunk, (err) => (err ? reject(err) : undefined));
    if (ok) resolve();
    else out.once('drain', resolve);
  });
}

export function tarWriter(out: Writable) {
  return {
    async add(name: string, data: Buffer, mtime = new Date()) {
      await write(out, header(name, data.length, mtime));
      await write(out, data);
      const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
      if (pad > 0) await write(out, Buffer.alloc(pad, 0));
    },
    /** Two zero blocks: the end of the archive. Does not end `out`. */
    async finish() {
      await write(out, Buffer.alloc(BLOCK * 2, 0));
    },
  };
}

export interface TarEntry {
  name: string;
  size: number;
}

/**
 * Reads a tar stream entry by entry; `onEntry` gets each file's bytes in order (chunks). Throws
 * ArchiveError on a bad header checksum, an entry cut short, or a stream that ends before the end marker.
 */
export async function readTar(
  input: Readable,
  onEntry: (entry: TarEntry, chunks: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  let buf: Buffer = Buffer.alloc(0);
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let ended = false;
  async function more(): Promise<boolean> {
    if (ended) return false;
    const r = await it.next();
    if (r.done) {
      ended = true;
      return false;
    }
    buf = buf.length === 0 ? r.value : Buffer.concat([buf, r.value]);
    return true;
  }
  async function take(n: number): Promise<Buffer> {
    while (buf.length < n) {
      if (!(await more())) throw new ArchiveError('het archief houdt midden in een bestand op');
    }
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  }

  for (;;) {
    const h = await take(BLOCK);
    if (h.every((b) => b === 0)) return; // the end marker
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    const stored = parseInt(h.subarray(148, 156).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    if (stored !== sum) throw new ArchiveError('een kop in het archief is beschadigd');
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    if (!Number.isSafeInteger(size) || size < 0)
      throw new ArchiveError('een kop in het archief is beschadigd');
    let left = size;
    async function* chunks(): AsyncGenerator<Buffer> {
      while (left > 0) {
        if (buf.length === 0 && !(await more()))
          throw new ArchiveError('het archief houdt midden in een bestand op');
        const n = Math.min(left, buf.length);
        const part = buf.subarray(0, n);
        buf = buf.subarray(n);
        left -= n;
        yield part;
      }
    }
    await onEntry({ name, size }, chunks());
    // Whatever the handler did not read.
    for await (const _ of chunks()) void _;
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad > 0) await take(pad);
  }
}
