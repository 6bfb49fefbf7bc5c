import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  printedBookStateSchema,
  type PrintedBookRequest,
  type PrintedBookState,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

const bookKey = (id: string) => memorialKeys.manage('session', id, 'printed-book');

/** GET /core/memorial/{id}/printed-book, polled every 2 s while the book is queued or rendering. */
export function usePrintedBook(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery({
    queryKey: bookKey(memorialId),
    enabled,
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.printedBook(memorialId), { schema: printedBookStateSchema, signal }),
    refetchInterval: (q) =>
      q.state.data?.status === 'queued' || q.state.data?.status === 'rendering' ? 2000 : false,
  });
}

/** POST: render a (new) book with the chosen print options. */
export function useRequestPrintedBook(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (options: PrintedBookRequest) =>
      client.post(apiPaths.printedBook(memorialId), options, { schema: printedBookStateSchema }),
    onSuccess: (s) => queryClient.setQueryData<PrintedBookState>(bookKey(memorialId), s),
  });
}
