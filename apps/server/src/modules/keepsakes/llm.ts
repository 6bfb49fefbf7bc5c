/**
 * An OpenAI-compatible chat endpoint (`POST {LLM_BASE_URL}/chat/completions`, `stream: true`), spoken to
 * with Node's fetch: hosted models, Ollama and vLLM all answer it. The answer is a stream of server-sent
 * events, `data: {json}` lines with `choices[0].delta.content`, ending with `data: [DONE]`
 * (docs/keepsakes.md 'AI-assisted draft').
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type LlmFailure = 'refused' | 'http' | 'timeout' | 'network' | 'dropped' | 'protocol';

export class LlmError extends Error {
  readonly kind: LlmFailure;
  readonly status: number | undefined;
  constructor(kind: LlmFailure, message: string, status?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

export interface LlmSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** The longest wait for the answer's headers, and then for each next piece of it. */
  timeoutMs: number;
}

type Chunk = {
  choices?: { delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }[];
  error?: { message?: unknown } | string;
};

const completionsUrl = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/chat/completions`;

/** The endpoint's host, as the screen names it ('api.openai.com', 'llm.example.nl:8000'). */
export const endpointHost = (baseUrl: string) => new URL(baseUrl).host;

/**
 * Streams the model's text piece by piece. Throws LlmError: 'refused' (401/403), 'http' (another status, or
 * an error object in the stream), 'timeout', 'network' (no connection), 'dropped' (the stream ended before
 * `[DONE]` or a finish reason), 'protocol' (not the chat-completions protocol). `signal` aborts it (the
 * caller went away); that ends the generator without an error of ours.
 */
export async function* streamChat(
  settings: LlmSettings,
  messages: ChatMessage[],
  signal?: AbortSignal,
): AsyncGenerator<string> {
  const idle = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(), settings.timeoutMs);
  };
  const abort = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal;
  const failure = (err: unknown, during: 'connect' | 'read'): LlmError => {
    if (err instanceof LlmError) return err;
    if (idle.signal.aborted) return new LlmError('timeout', 'timed out');
    const msg = err instanceof Error ? err.message : String(err);
    return during === 'connect' ? new LlmError('network', msg) : new LlmError('dropped', msg);
  };

  arm();
  try {
    let res: Response;
    try {
      res = await fetch(completionsUrl(settings.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          authorization: `Bearer ${settings.apiKey}`,
        },
        body: JSON.stringify({ model: settings.model, messages, stream: true, temperature: 0.2 }),
        signal: abort,
        redirect: 'error',
      });
    } catch (err) {
      if (signal?.aborted) return;
      throw failure(err, 'connect');
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new LlmError(
        res.status === 401 || res.status === 403 ? 'refused' : 'http',
        `HTTP ${res.status}`,
        res.status,
      );
    }
    arm();
    const type = res.headers.get('content-type') ?? '';
    // An endpoint that ignores `stream: true` answers one JSON object: take its message whole.
    if (type.includes('application/json')) {
      let body: Chunk;
      try {
        body = (await res.json()) as Chunk;
      } catch (err) {
        if (signal?.aborted) return;
        throw failure(err, 'read');
      }
      const content = body.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new LlmError('protocol', 'no message content');
      yield content;
      return;
    }
    if (!res.body) throw new LlmError('protocol', 'no body');

    let finished = false;
    // Comments (': keep-alive'), event names and line endings are the parser's business; we read `data`.
    const reader = res.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    try {
      for (;;) {
        let part: Awaited<ReturnType<typeof reader.read>>;
        try {
          part = await reader.read();
        } catch (err) {
          if (signal?.aborted) return;
          throw failure(err, 'read');
        }
        if (part.done) break;
        arm();
        const data = part.value.data.trim();
        if (data === '[DONE]') return;
        let chunk: Chunk;
        try {
          chunk = JSON.parse(data) as Chunk;
        } catch {
          throw new LlmError('protocol', 'a data line that is not JSON');
        }
        if (chunk.error) throw new LlmError('http', 'error in stream');
        const choice = chunk.choices?.[0];
        if (choice?.finish_reason) finished = true;
        const text = choice?.delta?.content;
        if (typeof text === 'string' && text) yield text;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    if (signal?.aborted) return;
    if (!finished) throw new LlmError('dropped', 'the stream ended before [DONE]');
  } finally {
    clearTimeout(timer);
  }
}
