import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  guestbookEntrySchema,
  guestbookSchema,
  type Guestbook,
  type GuestbookEntry,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { readEventStream } from '../../../lib/event-stream.ts';
import { saveText } from '../../../lib/files/save-text.ts';

export const guestbookKey = (memorialId: string) => ['guestbook', memorialId] as const;

/** GET /memorial/{id}/guestbook: the plan's answer, the short link and every entry (hidden ones marked). */
export function useGuestbook(memorialId: string, enabled = true) {
  const client = useApiClient();
  return useQuery({
    queryKey: guestbookKey(memorialId),
    enabled,
    queryFn: ({ signal }) => client.get(apiPaths.guestbook(memorialId), { schema: guestbookSchema, signal }),
  });
}

export function useSetGuestbookOpen(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (open: boolean) =>
      client.put(apiPaths.guestbook(memorialId), { open }, { schema: guestbookSchema }),
    onSuccess: (data) => queryClient.setQueryData(guestbookKey(memorialId), data),
  });
}

/** Puts an entry into the cached list (new, or changed), oldest first. */
function upsert(data: Guestbook | undefined, e: GuestbookEntry): Guestbook | undefined {
  if (!data?.guestbook) return data;
  const others = data.guestbook.entries.filter((x) => x.id !== e.id);
  const entries = [...others, e].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return { ...data, guestbook: { ...data.guestbook, entries } };
}

export function useHideEntry(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: string; hidden: boolean }) =>
      client.put(apiPaths.guestbookEntry(memorialId, id), { hidden }, { schema: guestbookEntrySchema }),
    onSuccess: (e) => queryClient.setQueryData<Guestbook>(guestbookKey(memorialId), (d) => upsert(d, e)),
  });
}

/** The CSV (UTF-8 with BOM, `;`) and the PDF, saved as files. */
export function useExportGuestbook(memorialId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (kind: 'csv' | 'pdf') => {
      if (kind === 'csv') {
        const text = await client.get<string>(apiPaths.guestbookCsv(memorialId), { as: 'text' });
        const withBom = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
        saveText(withBom, 'condoleanceregister.csv', 'text/csv;charset=utf-8');
        return;
      }
      const pdf = await client.get<Blob>(apiPaths.guestbookPdf(memorialId), { as: 'blob' });
      const url = URL.createObjectURL(pdf);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'condoleanceregister.pdf';
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  });
}

/**
 * The live stream (server-sent events, read with fetch so the bearer token goes along): every new or
 * changed entry goes into the list as it comes. On (re)connecting the list is read again, so nothing
 * written while the stream was down is missed. Returns whether the stream is connected.
 */
export function useGuestbookLive(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const ac = new AbortController();
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = async () => {
      try {
        const res = await client.stream(apiPaths.guestbookStream(memorialId), ac.signal);
        // No access any more (removed, role withdrawn): trying again won't help.
        if (res.status === 403 || res.status === 404) {
          setConnected(false);
          return;
        }
        if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
        await readEventStream(res.body, (name, data) => {
          if (name === 'ready') {
            setConnected(true);
            void queryClient.invalidateQueries({ queryKey: guestbookKey(memorialId) });
          } else if (name === 'entry' && data) {
            const e = guestbookEntrySchema.parse(JSON.parse(data));
            queryClient.setQueryData<Guestbook>(guestbookKey(memorialId), (d) => upsert(d, e));
          }
        });
      } catch {
        // Reconnect below.
      }
      setConnected(false);
      if (!ac.signal.aborted) retry = setTimeout(() => void connect(), 3000);
    };
    void connect();
    return () => {
      ac.abort();
      clearTimeout(retry);
    };
  }, [client, memorialId, enabled, queryClient]);
  return connected;
}
