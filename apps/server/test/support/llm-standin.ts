/**
 * A local stand-in for an OpenAI-compatible chat endpoint (test support): `POST /v1/chat/completions`,
 * with `stream: true` as server-sent events (`data: {chunk}` lines, a last chunk with `finish_reason`,
 * then `data: [DONE]`) and without it as one JSON object, checking the bearer key as hosted endpoints do.
 * Replies are scripted (a queue; `POST /__script` does the same over HTTP for the end-to-end server):
 * a text, an HTTP error, a stream that drops mid-way, or one that stalls. With nothing scripted it writes
 * a faithful draft: per source in the prompt, its first sentence with the source's tag.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type LlmReply =
  | {
      /** The model's text; streamed in pieces of a few words. */
      text: string;
      /** Stop (destroy the connection) after this many pieces, without a finish reason or [DONE]. */
      dropAfter?: number;
      /** Send this many pieces, then nothing more (the connection stays open). */
      stallAfter?: number;
      /** Pause between pieces, so a browser sees the text come in. */
      delayMs?: number;
    }
  | { status: number; message?: string };

export interface LlmRequest {
  authorization: string | undefined;
  body: { model?: string; stream?: boolean; messages?: { role: string; content: string }[] };
}

/** A faithful reply from the prompt's sources: for each `[A:…]`/`[M:n]` block, its first sentence. */
export function faithfulReply(prompt: string): string {
  const paragraphs: string[] = [];
  const blocks = prompt.split(/\n(?=\[[AM]:)/).slice(1);
  for (const block of blocks) {
    const tag = /^\[([AM]:[^\]]+)\]/.exec(block)![1]!;
    const text = block
      .split('\n')
      .slice(1)
      .join(' ')
      .replace(/^Antwoord:\s*/, '')
      .trim();
    const first = /^[^.!?]*[.!?]?/.exec(text)![0].trim();
    if (first) paragraphs.push(`${first} [${tag}]`);
  }
  return paragraphs.join('\n\n') || 'Er is weinig bekend. [A:onbekend]';
}

const pieces = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

export async function startLlmStandIn(o: { port?: number; apiKey?: string; model?: string } = {}) {
  const apiKey = o.apiKey ?? 'sk-standin';
  const queue: LlmReply[] = [];
  const requests: LlmRequest[] = [];
  const open = new Set<http.ServerResponse>();

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      let s = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (s += c));
      req.on('end', () => resolve(s));
      req.on('error', reject);
    });

  const server = http.createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'POST' && url.pathname === '/__script') {
        queue.push(...(JSON.parse(raw) as LlmReply[]));
        return json(res, 200, { queued: queue.length });
      }
      if (req.method === 'GET' && url.pathname === '/__requests') return json(res, 200, requests);
      if (req.method === 'DELETE' && url.pathname === '/__requests') {
        requests.length = 0;
        queue.length = 0;
        return json(res, 200, {});
      }
      if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
        return json(res, 404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      }
      let body: LlmRequest['body'];
      try {
        body = JSON.parse(raw) as LlmRequest['body'];
      } catch {
        return json(res, 400, { error: { message: 'Invalid JSON', type: 'invalid_request_error' } });
      }
      requests.push({ authorization: req.headers.authorization, body });
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return json(res, 401, {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
      }
      const prompt = body.messages?.find((m) => m.role === 'user')?.content ?? '';
      const reply: LlmReply = queue.shift() ?? { text: faithfulReply(prompt) };
      if ('status' in reply) {
        return json(res, reply.status, {
          error: { message: reply.message ?? 'The server had an error.', type: 'server_error' },
        });
      }
      const id = `chatcmpl-${requests.length}`;
      const model = body.model ?? o.model ?? 'standin';
      const created = Math.floor(Date.now() / 1000);
      if (!body.stream) {
        return json(res, 200, {
          id,
          object: 'chat.completion',
          created,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
        });
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      open.add(res);
      res.on('close', () => open.delete(res));
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({
          id,
          object: 'chat.completion.chunk',
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`;
      res.write(': keep-alive\n\n');
      res.write(chunk({ role: 'assistant', content: '' }, null));
      const parts = pieces(reply.text);
      for (let i = 0; i < parts.length; i++) {
        if (reply.dropAfter !== undefined && i >= reply.dropAfter) {
          // What was written reaches the client first; then the connection ends mid-answer.
          await new Promise((r) => res.write(': \n\n', r));
          await new Promise((r) => setTimeout(r, 50));
          res.socket?.end();
          return;
        }
        if (reply.stallAfter !== undefined && i >= reply.stallAfter) return;
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        res.write(chunk({ content: parts[i] }, null));
      }
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;

  return {
    /** What LLM_BASE_URL is set to. */
    url: `${root}/v1`,
    root,
    apiKey,
    requests,
    /** Queues replies; each request takes the next, then the faithful default. */
    script: (...replies: LlmReply[]) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type LlmStandIn = Awaited<ReturnType<typeof startLlmStandIn>>;
