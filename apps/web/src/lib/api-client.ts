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
export const networkMessage =
  'Er is geen verbinding met de server. Controleer je internetverbinding en probeer het opnieuw.';
export const unknownMessage = 'Er ging iets mis aan onze kant. Probeer het later opnieuw.';

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

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long to wait before the one automatic retry of a write (a 503's Retry-After, at most 3 s). */
const RETRY_MAX_WAIT_MS = 3000;

/**
 * A random key for one logical write (a UUID v4). `crypto.randomUUID` exists only in secure contexts,
 * so it is built from `getRandomValues` where it is missing (a plain-http test host).
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The header name, whatever case the caller gave it in. */
export function idempotencyHeader(headers: Record<string, string> | undefined): string | undefined {
  for (const [name, value] of Object.entries(headers ?? {}))
    if (name.toLowerCase() === 'idempotency-key') return value;
  return undefined;
}

export function retryDelayMs(retryAfter: string | null): number {
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, RETRY_MAX_WAIT_MS) : 1000;
}

export const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Afgebroken', 'AbortError'));
      },
      { once: true },
    );
  });

export function isErrorBody(
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

  /** Uploads load their code (XMLHttpRequest, progress, the retry) with the first one: api-upload.ts. */
  const upload = async <T>(path: string, form: FormData, options: UploadOptions<T> = {}): Promise<T> =>
    (await import('./api-upload.ts')).upload<T>({ getToken, baseUrl }, path, form, options);

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
