/**
 * Reads a server-sent events body (fetched, so the bearer token goes along), calling `onEvent` for each
 * event until the stream ends. The parser is loaded on first use: the pages that never stream don't carry it.
 */
export async function readEventStream(
  body: NonNullable<Response['body']>,
  onEvent: (event: string, data: string) => void,
): Promise<void> {
  const { EventSourceParserStream } = await import('eventsource-parser/stream');
  const reader = body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onEvent(value.event ?? 'message', value.data);
  }
}
