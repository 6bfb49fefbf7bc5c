import { useMutation } from '@tanstack/react-query';
import { apiPaths, type MemorialService, type RsvpCreate } from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialSchemas } from '../../../lib/memorials/queries.ts';
import { saveText } from '../../../lib/files/save-text.ts';

export { useServices } from '../../../lib/memorials/services.ts';

/** POST /core/memorial/{id}/services/{serviceId}/rsvp */
export function useRsvp(memorialId: string, serviceId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (input: RsvpCreate) =>
      client.post(apiPaths.serviceRsvp(memorialId, serviceId), input, {
        schema: (await memorialSchemas()).rsvpCreatedSchema,
      }),
  });
}

/** GET …/calendar.ics, with the visitor's token (a private page needs it), saved as a file. */
export function useDownloadCalendar(memorialId: string) {
  const client = useApiClient();
  return useMutation({
    mutationFn: async (s: MemorialService) => {
      const text = await client.get<string>(apiPaths.funeralServiceCalendar(memorialId, s.id), {
        as: 'text',
      });
      saveText(text, `${s.kind}-${s.date}.ics`, 'text/calendar');
    },
  });
}
