import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  memorialServiceSchema,
  rsvpListSchema,
  serviceDeletedSchema,
  type MemorialService,
  type ServiceInput,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { saveText } from '../../../lib/files/save-text.ts';

const rsvpsKey = (memorialId: string, serviceId: string) =>
  ['memorial-services', memorialId, serviceId, 'rsvps'] as const;

/** POST (new) or PUT (existing) a service; the page's services read again in every scope. */
export function useSaveService(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ServiceInput }) =>
      id
        ? client.put(apiPaths.funeralService(memorialId, id), input, { schema: memorialServiceSchema })
        : client.post(apiPaths.funeralServices(memorialId), input, { schema: memorialServiceSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memorialKeys.root }),
  });
}

export function useDeleteService(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: MemorialService) =>
      client.delete(apiPaths.funeralService(memorialId, s.id), { schema: serviceDeletedSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memorialKeys.root }),
  });
}

/** GET …/rsvps: the list with its totals (refreshed by a button; no live updates). */
export function useRsvps(memorialId: string, serviceId: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: rsvpsKey(memorialId, serviceId),
    queryFn: ({ signal }) =>
      client.get(apiPaths.serviceRsvps(memorialId, serviceId), { schema: rsvpListSchema, signal }),
  });
}

/** GET …/rsvps.csv, saved as a file (UTF-8 with BOM, `;` separated: Dutch Excel opens it as it is). */
export function useExportRsvps(memorialId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (s: MemorialService) => {
      const text = await client.get<string>(apiPaths.serviceRsvpsCsv(memorialId, s.id), { as: 'text' });
      // Reading the answer as text drops the server's byte order mark; Excel needs it for the accents.
      const withBom = text.startsWith('\uFEFF') ? text : `\uFEFF${text}`;
      saveText(withBom, `aanmeldingen-${s.kind}-${s.date}.csv`, 'text/csv;charset=utf-8');
    },
  });
}
