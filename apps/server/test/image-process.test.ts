// The image process (lib/media/image-worker.ts): sharp runs in a child that reads uploads by path, survives
// nothing but is replaced, and is let go when idle (docs/decisions/015-memory.md).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderVariant } from '../src/lib/media/image.ts';
import { imageProcessPid } from '../src/lib/media/image-worker.ts';
import { eventually } from './fixtures/content.ts';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'aandenken-image-process-'));
  file = path.join(dir, 'photo.jpg');
  await fs.writeFile(
    file,
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6a8caf' } })
      .jpeg()
      .toBuffer(),
  );
});
afterAll(async () => fs.rm(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the image process', () => {
  it('renders a file by its path in a child process, and gives a task whose process died a fresh one', async () => {
    const rendering = renderVariant({ path: file }, 640, 'webp');
    const first = imageProcessPid();
    expect(first).not.toBeNull();
    expect(first).not.toBe(process.pid);
    // Killed while it starts (as the kernel's OOM killer or a decoder fault would): the server lives on.
    process.kill(first!, 'SIGKILL');
    const out = await rendering;
    expect({ width: out.width, height: out.height }).toEqual({ width: 640, height: 480 });
    expect((await sharp(out.data).metadata()).format).toBe('webp');
    const second = imageProcessPid();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(alive(first!)).toBe(false);
  });

  it('is let go once idle, so its memory returns to the system; the next task starts a new one', async () => {
    await renderVariant({ path: file }, 320, 'jpg');
    const pid = imageProcessPid()!;
    expect(alive(pid)).toBe(true);
    await eventually(async () => imageProcessPid() === null && !alive(pid));
    const again = await renderVariant({ path: file }, 320, 'jpg');
    expect(again.width).toBe(320);
    expect(imageProcessPid()).not.toBe(pid);
  });
});
