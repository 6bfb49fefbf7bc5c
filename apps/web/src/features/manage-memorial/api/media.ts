import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  mediaDeletedSchema,
  mediaItemSchema,
  mediaListSchema,
  type MediaItem,
} from '@aandenken/contract';
import { useApiClient, type ApiClient, type UploadProgress } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';

/** POST /core/memorial-media (multipart, text fields first) with progress. */
export function uploadGalleryItem(
  client: ApiClient,
  memorialId: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
): Promise<MediaItem> {
  const form = new FormData();
  form.append('memorialId', memorialId);
  form.append('media', file, file.name);
  return client.upload(apiPaths.galleryUpload(), form, { schema: mediaItemSchema, onProgress });
}

function useGalleryCache(memorialId: string) {
  const queryClient = useQueryClient();
  const key = memorialKeys.gallery('session', memorialId);
  return {
    key,
    set: (items: MediaItem[]) => queryClient.setQueryData(key, { items }),
    get: () => queryClient.getQueryData<{ items: MediaItem[] }>(key)?.items ?? [],
    refresh: () => queryClient.invalidateQueries({ queryKey: memorialKeys.all('session', memorialId) }),
  };
}

export function useRefreshGallery(memorialId: string) {
  return useGalleryCache(memorialId).refresh;
}

/** PUT /core/memorial-media/reorder: every item once, in the new order (shown at once, undone on failure). */
export function useReorderGallery(memorialId: string) {
  const client = useApiClient();
  const cache = useGalleryCache(memorialId);
  return useMutation({
    mutationFn: (items: MediaItem[]) =>
      client.put(
        apiPaths.galleryReorder(),
        { memorialId, orderedIds: items.map((i) => i.id) },
        { schema: mediaListSchema },
      ),
    onMutate: (items) => {
      const before = cache.get();
      cache.set(items);
      return { before };
    },
    onError: (_e, _v, ctx) => ctx && cache.set(ctx.before),
    onSuccess: (list) => cache.set(list.items),
  });
}

/** PUT /core/memorial-media/{id}: the caption (empty removes it). */
export function useUpdateCaption(memorialId: string) {
  const client = useApiClient();
  const cache = useGalleryCache(memorialId);
  return useMutation({
    mutationFn: ({ id, caption }: { id: string; caption: string }) =>
      client.put(apiPaths.galleryItem(id), { caption }, { schema: mediaItemSchema }),
    onSuccess: (item) => cache.set(cache.get().map((i) => (i.id === item.id ? item : i))),
  });
}

/** DELETE /core/memorial-media/{id} */
export function useDeleteMedia(memorialId: string) {
  const client = useApiClient();
  const cache = useGalleryCache(memorialId);
  return useMutation({
    mutationFn: (id: string) => client.delete(apiPaths.galleryItem(id), { schema: mediaDeletedSchema }),
    onSuccess: ({ id }) => {
      cache.set(cache.get().filter((i) => i.id !== id));
      return cache.refresh();
    },
  });
}
