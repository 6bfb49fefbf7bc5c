// The image process: a child of the server that does the sharp work (`image-work.ts`) asked for over IPC by
// `image-worker.ts`, and exits when the server lets it go (recycled) or goes away.
import sharp from 'sharp';
import { ImageWorkError, asBuffer, type ImageInput, type ImageReply, type ImageTask } from './image-task.ts';
import { illustrationWork, probeWork, renderWork } from './image-work.ts';

// A process that lives for a few tasks gains nothing from libvips' operation cache, only memory.
sharp.cache(false);

/** A file is read by libvips itself; bytes arrive over IPC. */
const source = (input: ImageInput) => (input instanceof Uint8Array ? asBuffer(input) : input.path);

async function run(task: ImageTask): Promise<unknown> {
  switch (task.op) {
    case 'probe':
      return probeWork(source(task.input), task.type, task.maxPixels);
    case 'render':
      return renderWork(source(task.input), task.width, task.format, task.maxPixels);
    case 'illustration':
      return illustrationWork({ ...task, svg: asBuffer(task.svg) });
  }
}

process.on('message', (message: { id: number; task: ImageTask }) => {
  run(message.task).then(
    (value) => process.send!({ id: message.id, ok: true, value } satisfies ImageReply),
    (err: unknown) =>
      process.send!({
        id: message.id,
        ok: false,
        kind: err instanceof ImageWorkError ? err.kind : 'failed',
        message: err instanceof Error ? err.message : String(err),
      } satisfies ImageReply),
  );
});
// The server closed the channel (recycling this process, or stopping): finish nothing more.
process.on('disconnect', () => process.exit(0));
