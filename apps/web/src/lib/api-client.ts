import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import type * as z from 'zod/mini';
import { apiPrefix } from '@aandenken/contract';

/** An error answer of the API (`{ code, message, fields? }`), or a request that never reached it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** The whole error body, for the few errors that carry more (a challenge to solve). */
    readonly body?: unknown,
  ) {
    super(message);
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export const NETWORK_ERROR = 'NETWORK_ERROR';
const networkMessage =
  'Er is geen verbinding met de server. Controleer je internetverbinding en probeer het opnieuw.';
const unknownMessage = 'Er ging iets mis aan onze kant. Probeer het later opnieuw.';

export interface RequestOptions<T> {
  body?: unknown;
  /** Parses the success body; without it the body is returned as unknown JSON. */
  schema?: z.ZodMiniType<T>;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
  /** 'text': the success body as text (a calendar file, a CSV export), not parsed as JSON. */
  as?: 'text';
}

export interface ApiClient {
  request<T = unknown>(method: string, path: string, options?: RequestOptions<T>): Promise<T>;
  get<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  delete<T = unknown>(path: string, options?: Omit<RequestOptions<T>, 'body'>): Promise<T>;
  /** POSTs multipart form data, reporting upload progress (XMLHttpRequest: fetch cannot report it). */
  upload<T = unknown>(path: string, form: FormData, options?: UploadOptions<T>): Promise<T>;
}

export interface UploadProgress {
  loaded: number;
  total: number;
  /** 0 to 1. */
  fraction: number;
}

export interface UploadOptions<T> extends Omit<RequestOptions<T>, 'body'> {
  onProgress?: (progress: UploadProgress) => void;
}

export interface ApiClientOptions {
  /** A bearer token for the request (the user's, else the guest's), or null to send none. */
  getToken: () => Promise<string | null> | string | null;
  /** Where the product API lives; `/core` on the site's own origin by default. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

function isErrorBody(
  value: unknown,
): value is { code: string; message: string; fields?: Record<string, string> } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * The one fetch client of the web app: JSON in and out, bearer token attached, error bodies turned
 * into ApiError. It never shows toasts or redirects: callers decide what a person sees.
 */
export function createApiClient({
  getToken,
  baseUrl = apiPrefix,
  fetch: fetchImpl,
}: ApiClientOptions): ApiClient {
  const doFetch =
    fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  async function request<T>(method: string, path: string, options: RequestOptions<T> = {}): Promise<T> {
    const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
    const token = await getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }

    let res: Response;
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
      throw new ApiError(0, NETWORK_ERROR, networkMessage);
    }

    const text = await res.text();
    if (res.ok && options.as === 'text') return text as T;
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

  async function upload<T>(path: string, form: FormData, options: UploadOptions<T> = {}): Promise<T> {
    const token = await getToken();
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `${baseUrl}${path}`);
      xhr.setRequestHeader('accept', 'application/json');
      for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable)
          options.onProgress?.({
            loaded: e.loaded,
            total: e.total,
            fraction: e.total ? e.loaded / e.total : 0,
          });
      };
      xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR, networkMessage));
      xhr.onabort = () => reject(new DOMException('Upload afgebroken', 'AbortError'));
      if (options.signal?.aborted) return xhr.abort();
      options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(form);
    });
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

  return {
    request,
    upload,
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
