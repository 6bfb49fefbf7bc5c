import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, createApiClient } from './api-client.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client', () => {
  it('sends JSON with the bearer token and parses the answer with a schema', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(201, { id: 'a' }));
    const client = createApiClient({ getToken: () => 'tok', fetch });
    const result = await client.post('/contact', { name: 'Jan' }, { schema: z.object({ id: z.string() }) });
    expect(result).toEqual({ id: 'a' });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/core/contact');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"name":"Jan"}');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, {}));
    await createApiClient({ getToken: async () => null, fetch }).get('/x');
    expect((fetch.mock.calls[0]![1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('turns { code, message, fields } into an ApiError', async () => {
    const fetch = vi.fn(async () =>
      json(400, { code: 'VALIDATION_ERROR', message: 'Controleer', fields: { email: 'Ongeldig' } }),
    );
    const error = await createApiClient({ getToken: () => null, fetch })
      .post('/x', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Controleer',
      fields: { email: 'Ongeldig' },
    });
  });

  it('reports an unreachable server and a non-JSON failure in Dutch', async () => {
    const down = createApiClient({
      getToken: () => null,
      fetch: vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    });
    const e1 = (await down.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(e1.isNetworkError).toBe(true);
    expect(e1.message).toMatch(/geen verbinding/);
    const html = createApiClient({
      getToken: () => null,
      fetch: vi.fn(async () => new Response('<h1>502</h1>', { status: 502 })),
    });
    const e2 = (await html.get('/x').catch((e: unknown) => e)) as ApiError;
    expect(e2).toMatchObject({ status: 502, code: 'HTTP_ERROR' });
  });
});

describe('api client: files and streams', () => {
  it('gives a file as a Blob, and its error as an ApiError', async () => {
    const ok = createApiClient({ getToken: () => 'tok', fetch: vi.fn(async () => new Response('%PDF-1.7')) });
    const blob = await ok.get<Blob>('/x.pdf', { as: 'blob' });
    expect(await blob.text()).toBe('%PDF-1.7');
    const refused = createApiClient({
      getToken: () => 'tok',
      fetch: vi.fn(async () => json(403, { code: 'FORBIDDEN', message: 'Geen toegang.' })),
    });
    const error = await refused.get('/x.pdf', { as: 'blob' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, message: 'Geen toegang.' });
  });

  it('streams a GET, or a POST with a JSON body, with the token and without a retry', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response('{}\n'));
    const client = createApiClient({ getToken: () => 'tok', fetch });
    await client.stream('/live', new AbortController().signal);
    await client.stream('/draft', new AbortController().signal, { chosen: ['a'] });
    type Call = [string, RequestInit];
    const [[getUrl, get], [postUrl, post]] = fetch.mock.calls as unknown as [Call, Call];
    expect([getUrl, get.method, get.body]).toEqual(['/core/live', 'GET', undefined]);
    expect([postUrl, post.method, post.body]).toEqual(['/core/draft', 'POST', '{"chosen":["a"]}']);
    expect(post.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('api client: idempotency keys and the retry of a write', () => {
  const keyOf = (init?: RequestInit) => (init?.headers as Record<string, string>)['Idempotency-Key'];

  it('sends a new Idempotency-Key with every write and none with a read', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(201, {}));
    const client = createApiClient({ getToken: () => null, fetch });
    await client.post('/candles/m', { name: 'A' });
    await client.post('/candles/m', { name: 'A' });
    await client.delete('/candles/c');
    await client.get('/x');
    const keys = fetch.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys[3]).toBeUndefined();
  });

  it('keeps a key the caller gives', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(201, {}));
    await createApiClient({ getToken: () => null, fetch }).post(
      '/x',
      {},
      { headers: { 'Idempotency-Key': 'eigen-sleutel-1' } },
    );
    expect(keyOf(fetch.mock.calls[0]![1])).toBe('eigen-sleutel-1');
  });

  it('tries a write once more with the same key after a network error or a 503', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json(201, { id: 'k1' });
      });
      const client = createApiClient({ getToken: () => null, fetch });
      const pending = client.post('/candles/m', { name: 'A' });
      await vi.runAllTimersAsync();
      expect(await pending).toEqual({ id: 'k1' });
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(keyOf(fetch.mock.calls[1]![1])).toBe(keyOf(fetch.mock.calls[0]![1]));

      const busy = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) =>
        json(503, { code: 'DATABASE_UNAVAILABLE', message: 'Even niet' }),
      );
      const failing = createApiClient({ getToken: () => null, fetch: busy })
        .post('/x', {})
        .catch((e: unknown) => e);
      await vi.runAllTimersAsync();
      expect(await failing).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
      expect(busy).toHaveBeenCalledTimes(2);
      expect(keyOf(busy.mock.calls[1]![1])).toBe(keyOf(busy.mock.calls[0]![1]));

      // A read is not tried again, nor a write refused for another reason.
      const reads = vi.fn(async () => json(503, { code: 'DATABASE_UNAVAILABLE', message: 'Even niet' }));
      const read = createApiClient({ getToken: () => null, fetch: reads })
        .get('/x')
        .catch((e: unknown) => e);
      await vi.runAllTimersAsync();
      await read;
      expect(reads).toHaveBeenCalledTimes(1);
      const refused = vi.fn(async () => json(400, { code: 'VALIDATION_ERROR', message: 'Nee' }));
      await createApiClient({ getToken: () => null, fetch: refused })
        .post('/x', {})
        .catch(() => {});
      expect(refused).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
