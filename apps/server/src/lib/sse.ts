import type { ServerResponse } from 'node:http';

/** Server-sent events written on a hijacked reply: the one place that knows the text/event-stream format. */
export const sse = {
  /** Starts the stream; `headers` are those already on the reply (CORS and the like), which a hijack drops. */
  open(res: ServerResponse, headers: Record<string, string> = {}) {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Proxies (nginx) must pass each event on at once, not buffer the stream.
      'x-accel-buffering': 'no',
    });
  },
  /** One event; its data is JSON, which never spans lines. */
  event: (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`,
  /** A comment line that keeps a quiet connection from being closed by a proxy or the browser. */
  heartbeat: ': \n\n',
  /** How long the browser waits before it connects again. */
  retry: (ms: number) => `retry: ${ms}\n\n`,
};
