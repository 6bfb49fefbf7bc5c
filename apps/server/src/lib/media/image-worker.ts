// The server's side of the image process (`image-process.ts`): started on the first image task, fed tasks over
// IPC, and let go (it exits) after a few idle seconds or a number of tasks. libvips' buffers, its threads' malloc
// arenas and anything a decoder leaks go back to the system with it, so the server's own memory at rest does not
// carry the peak of the last upload (docs/decisions/015-memory.md). A crash of the image process (a decoder
// fault, the kernel's OOM killer) costs the tasks it had, not the server: each is tried once more in a fresh
// process, then refused as undecodable.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ImageWorkError, type ImageReply, type ImageTask } from './image-task.ts';

const entry = fileURLToPath(new URL('./image-process.ts', import.meta.url));
/** Idle this long, the image process is let go (an upload of several photos keeps it). */
const IDLE_MS = 3000;
/** After this many tasks it is replaced, whatever it holds. */
const MAX_TASKS = 100;

interface Pending {
  task: ImageTask;
  retried: boolean;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

class ImageProcess {
  readonly child: ChildProcess;
  readonly pending = new Map<number, Pending>();
  sent = 0;
  retiring = false;
  private idle: NodeJS.Timeout | undefined;
  private exited = false;
  private readonly onExit: (p: ImageProcess, orphans: Pending[]) => void;

  constructor(onExit: (p: ImageProcess, orphans: Pending[]) => void) {
    this.onExit = onExit;
    this.child = fork(entry, [], {
      execArgv: [],
      serialization: 'advanced',
      // glibc would give each of libvips' threads an arena of its own; two are plenty for a short-lived process.
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: ImageReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else if (reply.kind === 'failed') p.reject(new Error(`image process: ${reply.message}`));
      else p.reject(new ImageWorkError(reply.kind));
      this.settled();
    });
    this.child.on('error', () => this.exit());
    this.child.on('exit', () => this.exit());
    this.child.unref();
  }

  send(id: number, p: Pending) {
    clearTimeout(this.idle);
    this.pending.set(id, p);
    this.sent++;
    if (this.sent >= MAX_TASKS) this.retiring = true;
    // While a task is out, the channel keeps the server's event loop (a script's too) alive.
    channelOf(this.child)?.ref();
    this.child.send({ id, task: p.task }, (err) => {
      if (err) this.exit();
    });
  }

  private settled() {
    if (this.pending.size > 0) return;
    channelOf(this.child)?.unref();
    if (this.retiring) this.release();
    else this.idle = setTimeout(() => this.release(), IDLE_MS).unref();
  }

  release() {
    this.retiring = true;
    if (this.pending.size === 0 && this.child.connected) this.child.disconnect();
  }

  private exit() {
    if (this.exited) return;
    this.exited = true;
    clearTimeout(this.idle);
    const orphans = [...this.pending.values()];
    this.pending.clear();
    this.onExit(this, orphans);
  }
}

const channelOf = (child: ChildProcess) =>
  (child as ChildProcess & { channel?: { ref(): void; unref(): void } | null }).channel;

let current: ImageProcess | null = null;
let nextId = 1;

function dispatch(p: Pending) {
  if (!current || current.retiring) {
    current?.release();
    current = new ImageProcess((gone, orphans) => {
      if (current === gone) current = null;
      for (const o of orphans) {
        if (o.retried) o.reject(new ImageWorkError('undecodable'));
        else dispatch({ ...o, retried: true });
      }
    });
  }
  current.send(nextId++, p);
}

/** Runs one task in the image process. Rejects with `ImageWorkError` for an image it refuses. */
export function runImageTask<T>(task: ImageTask): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    dispatch({ task, retried: false, resolve: resolve as (v: unknown) => void, reject }),
  );
}

/** The image process's id while one runs (for tests and the memory benchmark). */
export const imageProcessPid = () => current?.child.pid ?? null;
