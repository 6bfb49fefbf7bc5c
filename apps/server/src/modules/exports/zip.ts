import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';

export interface ZipWriter {
  /** A text file, deflated. */
  text(name: string, content: string): Promise<void>;
  /** A file copied from a stream as it is (media are compressed already), chunk by chunk. */
  stream(name: string, source: Readable): Promise<void>;
}

/**
 * Writes a zip file to `file` with fflate's streaming `Zip`: each entry goes out chunk by chunk and the
 * writer waits for the file stream to drain, so memory stays flat however large the media are.
 */
export async function writeZip(file: string, build: (zip: ZipWriter) => Promise<void>): Promise<void> {
  const out = createWriteStream(file);
  let failure: Error | undefined;
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
  });
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      failure = err;
      out.destroy(err);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const drained = async () => {
    if (failure) throw failure;
    if (out.writableNeedDrain) await once(out, 'drain');
  };
  const entry = <F extends ZipDeflate | ZipPassThrough>(f: F) => {
    f.mtime = new Date();
    zip.add(f);
    return f;
  };
  try {
    await build({
      async text(name, content) {
        entry(new ZipDeflate(name, { level: 6 })).push(new TextEncoder().encode(content), true);
        await drained();
      },
      async stream(name, source) {
        const f = entry(new ZipPassThrough(name));
        for await (const chunk of source) {
          f.push(chunk as Uint8Array, false);
          await drained();
        }
        f.push(new Uint8Array(0), true);
        await drained();
      },
    });
    zip.end();
  } catch (err) {
    zip.terminate();
    out.destroy(err as Error);
    await closed.catch(() => undefined);
    throw err;
  }
  await closed;
  if (failure) throw failure;
}
