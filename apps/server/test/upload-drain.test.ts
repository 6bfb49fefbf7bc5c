import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drainOrClose } from '../src/lib/media/upload.ts';

/** A file-like stream that takes a while per write, so a large upload meets a full buffer often. */
function slowDisk() {
  return new Writable({
    highWaterMark: 64,
    write(_chunk, _encoding, callback) {
      setImmediate(callback);
    },
  });
}

const counts = (out: Writable) => ({
  drain: out.listenerCount('drain'),
  close: out.listenerCount('close'),
  error: out.listenerCount('error'),
});

describe('writing an upload to disk', () => {
  it('leaves no listeners behind after many full buffers (no "Possible EventEmitter memory leak")', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const out = slowDisk();
      out.on('error', () => {});
      const before = counts(out);
      let waits = 0;
      let most = 0;
      for (let i = 0; i < 500; i++) {
        if (!out.write(Buffer.alloc(256, i % 256))) {
          waits++;
          const waiting = drainOrClose(out);
          most = Math.max(most, out.listenerCount('close'));
          await waiting;
          expect(counts(out)).toEqual(before);
        }
      }
      expect(waits).toBe(500); // every chunk filled the buffer: the case that piled listeners up
      expect(most).toBe(before.close + 1); // while waiting: one listener for 'close', not one per chunk
      out.end();
      await new Promise((resolve) => out.once('finish', resolve));
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops waiting when the stream closes instead of draining, and cleans up then too', async () => {
    const out = new Writable({ highWaterMark: 1, write: () => {} }); // never finishes a write
    out.on('error', () => {});
    const before = counts(out);
    expect(out.write(Buffer.alloc(16))).toBe(false);
    const waiting = drainOrClose(out);
    out.destroy();
    await waiting;
    expect(counts(out)).toEqual(before);
  });
});
