import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { apiPrefix } from '@aandenken/contract';

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
  type RequestOptions,
  type UploadOptions,
} from './api-core.ts';

export { ApiError, NETWORK_ERROR, newIdempotencyKey };

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export type { ApiClientOptions, RequestOptions, UploadOptions, UploadProgress } from './api-core.ts';

export interface ApiClient {
  request<T = unknown>(method: string, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  /** POSTs multipart form data, reporting upload progress (XMLHttpRequest: fetch cannot report it). */
  upload<T = unknown>(path: string, form: FormData, options?: UploadOptions<T>): Promise<T>;
  /**
   * A long-lived request with the token, the response as it is, its body unread: a GET for server-sent events,
   * or with a `body` a POST whose answer streams in (NDJSON). Never retried: the caller decides.
   */
  stream(path: string, signal: AbortSignal, body?: unknown): Promise<Response>;
}

/**
 * The one fetch client of the web app: JSON in and out, bearer token attached, error bodies turned
 * into ApiError. It never shows toasts or redirects: callers decide what a person sees.
 *
 * Every write (POST, PUT, PATCH, DELETE, uploads) carries an `Idempotency-Key` (a new one per call
 * unless the caller gives one) and is tried once more with the same key when the server could not be
 * reached or answered 503: the server gives the first answer again if the first try did arrive, so a
 * lost answer never makes a change twice (docs/decisions/012-idempotency-keys.md).
 */
export function createApiClient({
  getToken,
  baseUrl = apiPrefix,
  fetch: fetchImpl,
}: ApiClientOptions): ApiClient {
  const doFetch =
    fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  async function request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const write = writeMethods.has(method.toUpperCase());
    const key = write ? (idempotencyHeader(options.headers) ?? newIdempotencyKey()) : undefined;
    let body: string | undefined;
    if (options.body !== undefined) body = JSON.stringify(options.body);

    let res: Response | undefined;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
      if (key) {
        for (const name of Object.keys(headers))
          if (name.toLowerCase() === 'idempotency-key') delete headers[name];
        headers['Idempotency-Key'] = key;
      }
      const token = await getToken();
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      try {
        res = await doFetch(`${baseUrl}${path}`, {
          method,
          headers,
          body,
          signal: options.signal,
          credentials: 'same-origin',
        });
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') throw err;
        if (write && attempt === 1) {
          await wait(retryDelayMs(null), options.signal);
          continue;
        }
        throw new ApiError(0, NETWORK_ERROR, networkMessage);
      }
      if (write && attempt === 1 && res.status === 503) {
        await wait(retryDelayMs(res.headers.get('retry-after')), options.signal);
        continue;
      }
      break;
    }

    if (res.ok && options.as) return (await res[options.as]()) as T;
    const text = await res.text();
    let data: unknown = undefined;
    if (text) {
      try {
        data = JSON.parse(text);
      } catch {
        data = undefined;
      }
    }

    if (!res.ok) {
      if (isErrorBody(data)) throw new ApiError(res.status, data.code, data.message, data.fields, data);
      throw new ApiError(res.status, 'HTTP_ERROR', unknownMessage);
    }
    return options.schema ? options.schema.parse(data) : (data as T);
  }

  /** Uploads load their code (XMLHttpRequest, progress, the retry) with the first one: api-upload.ts. */
  const upload = async <T>(path: string, form: FormData, options: UploadOptions<T> = {}): Promise<T> =>
    (await import('./api-upload.ts')).upload<T>({ getToken, baseUrl }, path, form, options);

  const stream = async (path: string, signal: AbortSignal, body?: unknown) => {
    const token = await getToken();
    const headers: Record<string, string> = { accept: 'text/event-stream, application/x-ndjson' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return doFetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  };

  return {
    request,
    upload,
    stream,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}

const ApiClientContext = createContext<ApiClient | null>(null);

export function ApiClientProvider({
  getToken,
  baseUrl,
  children,
}: ApiClientOptions & { children: ReactNode }) {
  const client = useMemo(() => createApiClient({ getToken, baseUrl }), [getToken, baseUrl]);
  return createElement(ApiClientContext.Provider, { value: client }, children);
}

export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (!client) throw new Error('useApiClient must be used inside <ApiClientProvider>');
  return client;
}
