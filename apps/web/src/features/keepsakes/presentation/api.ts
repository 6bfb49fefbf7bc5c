import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  presentationInfoSchema,
  presentationMusicSchema,
  presentationSettingsSchema,
  presentationVideoStateSchema,
  type PresentationInfo,
  type PresentationResolution,
  type PresentationSettingsUpdate,
  type PresentationVideoState,
} from '@aandenken/contract';
import { useApiClient } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

// The presentation: music for every plan; the builder and the video with Premium.
const presentationKey = (scope: string, id: string) => ['memorial', scope, id, 'presentation'] as const;
const videoKey = (id: string) => memorialKeys.manage('session', id, 'presentation-video');

/** GET …/presentation: the music and (Premium) the chosen slides, for whoever may see the page. */
export function usePresentationInfo(memorialId: string, enabled = true) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: presentationKey(scope, memorialId),
    enabled,
    retry: false,
    queryFn: ({ signal }) =>
      client.get(apiPaths.presentation(memorialId), { schema: presentationInfoSchema, signal }),
  });
}

function useSetInfo(memorialId: string) {
  const queryClient = useQueryClient();
  const scope = useViewerScope();
  return (update: (info: PresentationInfo) => PresentationInfo) =>
    queryClient.setQueryData<PresentationInfo>(presentationKey(scope, memorialId), (old) =>
      old ? update(old) : old,
    );
}

/** POST the music file (multipart, with progress); replaces the earlier music. */
export function useUploadMusic(memorialId: string) {
  const client = useApiClient();
  const setInfo = useSetInfo(memorialId);
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (fraction: number) => void }) => {
      const form = new FormData();
      form.append('media', file, file.name);
      return client.upload(apiPaths.presentationMusic(memorialId), form, {
        schema: presentationMusicSchema,
        onProgress: (p) => onProgress?.(p.fraction),
      });
    },
    onSuccess: (music) => setInfo((info) => ({ ...info, music })),
  });
}

export function useRemoveMusic(memorialId: string) {
  const client = useApiClient();
  const setInfo = useSetInfo(memorialId);
  return useMutation({
    mutationFn: () => client.delete(apiPaths.presentationMusic(memorialId)),
    onSuccess: () => setInfo((info) => ({ ...info, music: null })),
  });
}

export function useSavePresentationSettings(memorialId: string) {
  const client = useApiClient();
  const setInfo = useSetInfo(memorialId);
  return useMutation({
    mutationFn: (body: PresentationSettingsUpdate) =>
      client.put(apiPaths.presentationSettings(memorialId), body, { schema: presentationSettingsSchema }),
    onSuccess: (settings) => setInfo((info) => ({ ...info, settings })),
  });
}

export function useResetPresentationSettings(memorialId: string) {
  const client = useApiClient();
  const setInfo = useSetInfo(memorialId);
  return useMutation({
    mutationFn: () => client.delete(apiPaths.presentationSettings(memorialId)),
    onSuccess: () => setInfo((info) => ({ ...info, settings: null })),
  });
}

/** The video's state; asked again every 2 s while it is queued or rendering. */
export function usePresentationVideo(memorialId: string, enabled: boolean) {
  const client = useApiClient();
  return useQuery<PresentationVideoState>({
    queryKey: videoKey(memorialId),
    enabled,
    retry: false,
    refetchInterval: (q): number | false => {
      const status = q.state.data?.status;
      return status === 'queued' || status === 'rendering' ? 2000 : false;
    },
    queryFn: ({ signal }) =>
      client.get(apiPaths.presentationVideo(memorialId), { schema: presentationVideoStateSchema, signal }),
  });
}

export function useRequestVideo(memorialId: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resolution: PresentationResolution) =>
      client.post(
        apiPaths.presentationVideo(memorialId),
        { resolution },
        { schema: presentationVideoStateSchema },
      ),
    onSuccess: (state) => queryClient.setQueryData(videoKey(memorialId), state),
  });
}
