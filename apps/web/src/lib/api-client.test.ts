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
