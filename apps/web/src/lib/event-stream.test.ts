import { describe, expect, it } from 'vitest';
import { readEventStream } from './event-stream.ts';

const body = (...chunks: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
        c.close();
      },
    }),
  ).body!;

describe('readEventStream', () => {
  it('hands over each event with its name and data, across chunk borders, skipping comments and retry', async () => {
    const seen: [string, string][] = [];
    await readEventStream(
      body(
        'retry: 3000\n\nevent: ready\ndata: {}\n\n: \n\nevent: en',
        'try\ndata: {"id":1',
        '}\r\n\r\ndata: plain\n\n',
      ),
      (event, data) => seen.push([event, data]),
    );
    expect(seen).toEqual([
      ['ready', '{}'],
      ['entry', '{"id":1}'],
      ['message', 'plain'],
    ]);
  });
});
