/**
 * The upload half of the web app's fetch client (api-client.ts), loaded with the first upload so that
 * XMLHttpRequest's progress handling is not part of every page's first download. Same rules as the
 * client's writes: an `Idempotency-Key`, and one more try with the same key when the server could not be
 * reached or answered 503.
 */
import {
  ApiError,
  idempotencyHeader,
  isErrorBody,
  NETWORK_ERROR,
  networkMessage,
  newIdempotencyKey,
  retryDelayMs,
  unknownMessage,
  wait,
  type ApiClientOptions,
  type UploadOptions,
} from './api-core.ts';

export async function upload<T>(
  { getToken, baseUrl }: { getToken: ApiClientOptions['getToken']; baseUrl: string },
  path: string,
  form: FormData,
  options: UploadOptions<T> = {},
): Promise<T> {
  const key = idempotencyHeader(options.headers) ?? newIdempotencyKey();
  const send = async () => {
    const token = await getToken();
    return new Promise<{ status: number; text: string; retryAfter: string | null }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${baseUrl}${path}`);
      xhr.setRequestHeader('accept', 'application/json');
      for (const [name, value] of Object.entries(options.headers ?? {}))
        if (name.toLowerCase() !== 'idempotency-key') xhr.setRequestHeader(name, value);
      xhr.setRequestHeader('Idempotency-Key', key);
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable)
          options.onProgress?.({
            loaded: e.loaded,
            total: e.total,
            fraction: e.total ? e.loaded / e.total : 0,
          });
      };
      xhr.onload = () =>
        resolve({
          status: xhr.status,
          text: xhr.responseText,
          retryAfter: xhr.getResponseHeader('retry-after'),
        });
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR, networkMessage));
      xhr.onabort = () => reject(new DOMException('Upload afgebroken', 'AbortError'));
      if (options.signal?.aborted) return xhr.abort();
      options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
  };
  let answer: { status: number; text: string; retryAfter: string | null };
  try {
    answer = await send();
    if (answer.status === 503) {
      await wait(retryDelayMs(answer.retryAfter), options.signal);
      answer = await send();
    }
  } catch (err) {
    if (!(err instanceof ApiError && err.isNetworkError)) throw err;
    await wait(retryDelayMs(null), options.signal);
    answer = await send();
  }
  const { status, text } = answer;
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (status < 200 || status >= 300) {
    if (isErrorBody(data)) throw new ApiError(status, data.code, data.message, data.fields);
    if (status === 413) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Dit bestand is te groot.');
    throw new ApiError(status, 'HTTP_ERROR', unknownMessage);
  }
  return options.schema ? options.schema.parse(data) : (data as T);
}
