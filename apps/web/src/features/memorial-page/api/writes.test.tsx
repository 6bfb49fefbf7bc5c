import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Memorial } from '@aandenken/contract';
import { ApiClientProvider } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { usePublishMemorial } from './publish-memorial.ts';
import { useRsvp } from './services.ts';

// The page's writes take their schemas from the chunk loaded with the first read (lib/memorials/schemas.ts):
// the answers are still checked, and what reaches the cache is the parsed answer.

const memorialId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01';
const serviceId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a02';
const rsvpId = '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a03';
const memorial: Memorial = {
  id: memorialId,
  slug: 'johanna-de-vries-1948-2024',
  firstName: 'Johanna',
  lastName: 'de Vries',
  birthDate: '1948-03-12',
  deathDate: '2024-01-02',
  birthPlace: null,
  deathPlace: null,
  quote: null,
  coverMediaId: null,
  status: 'active',
  visibility: 'public',
  counts: { memories: 0, media: 0, candles: 0, members: 1 },
  role: 'owner',
  accessCode: null,
  accessCodeVersion: null,
  inviteOnly: false,
  searchEngines: false,
  publishedAt: '2024-01-03T10:00:00.000Z',
  createdAt: '2024-01-03T09:00:00.000Z',
  updatedAt: '2024-01-03T10:00:00.000Z',
};

function answering(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <ApiClientProvider getToken={() => null}>{children}</ApiClientProvider>
    </QueryClientProvider>
  );
  return { queryClient, wrapper };
}

afterEach(() => vi.unstubAllGlobals());

describe("the memorial page's writes check their answers", () => {
  it('publishing puts the parsed memorial in the cache, and refuses an answer that is no memorial', async () => {
    const ok = answering({ ...memorial, extra: 'weg' });
    const publish = renderHook(() => usePublishMemorial(memorialId), { wrapper: ok.wrapper });
    await publish.result.current.mutateAsync();
    expect(ok.queryClient.getQueryData(memorialKeys.detail('session', memorialId))).toEqual(memorial);

    const bad = answering({ id: memorialId, status: 'active' });
    const refused = renderHook(() => usePublishMemorial(memorialId), { wrapper: bad.wrapper });
    await expect(refused.result.current.mutateAsync()).rejects.toThrow();
    expect(bad.queryClient.getQueryData(memorialKeys.detail('session', memorialId))).toBeUndefined();
  });

  it('an RSVP answers with its id and number of people, checked', async () => {
    const ok = answering({ id: rsvpId, people: 2, extra: 'weg' });
    const rsvp = renderHook(() => useRsvp(memorialId, serviceId), { wrapper: ok.wrapper });
    await expect(rsvp.result.current.mutateAsync({ name: 'Anna', people: 2, note: null })).resolves.toEqual({
      id: rsvpId,
      people: 2,
    });

    const bad = answering({ id: rsvpId, people: 'twee' });
    const refused = renderHook(() => useRsvp(memorialId, serviceId), { wrapper: bad.wrapper });
    await expect(
      refused.result.current.mutateAsync({ name: 'Anna', people: 2, note: null }),
    ).rejects.toThrow();
    await waitFor(() => expect(refused.result.current.isError).toBe(true));
  });
});
