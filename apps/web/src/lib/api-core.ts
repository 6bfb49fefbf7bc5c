import type * as z from 'zod/mini';

/**
 * What the web app's fetch client (api-client.ts) and its upload half (api-upload.ts, loaded with the first
 * upload) share: the error type, the messages, the idempotency key and the one retry's wait.
 */
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
  /** The success body as text (a calendar file, a CSV export) or as a Blob (a PDF), not parsed as JSON. */
  as?: 'text' | 'blob';
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
