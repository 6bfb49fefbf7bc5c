import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  aiDraftEventSchema,
  aiDraftInfoSchema,
  apiPaths,
  biographySchema,
  type AiDraftEvent,
  type AiDraftRequest,
} from '@aandenken/contract';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** GET …/biography-draft: whether the AI draft is on, the plan, the endpoint's host, what may be sent. */
export function useAiDraftInfo(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: memorialKeys.manage('session', memorialId, 'biography-draft'),
    enabled,
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.biographyAiDraft(memorialId), { schema: aiDraftInfoSchema, signal }),
  });
}

/** 'Gebruik dit concept': PUT /core/memorial/biography with the draft's paragraphs (the family's choice). */
export function useSaveDraftAsBiography(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (html: string) =>
      client.put(apiPaths.biography(), { memorialId, html }, { schema: biographySchema }),
    onSuccess: (bio) => {
      queryClient.setQueryData(memorialKeys.biography('session', memorialId), bio);
      void queryClient.invalidateQueries({
        queryKey: memorialKeys.manage('session', memorialId, 'biography-draft'),
      });
    },
  });
}

const networkMessage =
  'Er is geen verbinding met Aandenken. Er is niets veranderd; probeer het opnieuw zodra je weer online bent.';

/** The source tags ([A:…], [M:n]) the model writes after each paragraph, hidden while the text streams in. */
export const stripSourceTags = (text: string) =>
  text.replace(/\[\s*(?:[AM]\s*:[^\]]*)\]/g, '').replace(/\[[AM]?:?[^\]\s]*$/, '');

/**
 * POST …/biography-draft, read as it arrives: one NDJSON event per line, each handed to `onEvent`.
 * A refusal before the stream (401, 403, 409, 400) throws an ApiError with the server's Dutch message.
 */
export function useStreamDraft(memorialId: string) {
  const client = useApiClient();
  return async (body: AiDraftRequest, onEvent: (e: AiDraftEvent) => void, signal: AbortSignal) => {
    let res: Response;
    try {
      res = await client.stream(apiPaths.biographyAiDraft(memorialId), signal, body);
    } catch (err) {
      if (signal.aborted) return;
      throw new ApiError(0, 'NETWORK_ERROR', err instanceof Error ? networkMessage : networkMessage);
    }
    if (!res.ok || !res.body) {
      const data = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
      throw new ApiError(
        res.status,
        data?.code ?? 'HTTP_ERROR',
        data?.message ?? 'Er ging iets mis. Er is niets veranderd; probeer het opnieuw.',
      );
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let ended = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (!line) continue;
          const event = aiDraftEventSchema.parse(JSON.parse(line));
          if (event.type === 'done' || event.type === 'error') ended = true;
          onEvent(event);
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      if (!(err instanceof TypeError || err instanceof DOMException)) throw err;
    }
    if (!ended && !signal.aborted) {
      onEvent({
        type: 'error',
        code: 'NETWORK_ERROR',
        message:
          'De verbinding viel weg voordat het concept af was. Er is niets veranderd; probeer het opnieuw.',
      });
    }
  };
}
