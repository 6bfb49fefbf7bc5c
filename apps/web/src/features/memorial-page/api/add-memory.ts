import { useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  mediaItemSchema,
  memorySchema,
  type MemoryCreate,
  type Memory,
  type MediaItem,
} from '@aandenken/contract';
import type { ApiClient, UploadProgress } from '../../../lib/api-client.ts';
import { memorialKeys } from '../../../lib/memorials/queries.ts';
import { useViewerScope } from '../../../lib/memorials/scope.tsx';

/**
 * Adding a memory takes three calls: a concept (only its author sees it), its photos one by one, then
 * publishing it ('published', or 'pending' until the family approves a guest's memory).
 */
export function createMemoryConcept(client: ApiClient, input: MemoryCreate): Promise<Memory> {
  return client.post(apiPaths.memoryConcept(), input, { schema: memorySchema });
}

export function updateMemoryConcept(
  client: ApiClient,
  id: string,
  input: { yearLabel: string; text: string },
): Promise<Memory> {
  return client.put(apiPaths.memories(), { id, ...input }, { schema: memorySchema });
}

export function uploadMemoryPhoto(
  client: ApiClient,
  memoryId: string,
  file: File,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<MediaItem> {
  const form = new FormData();
  // The server reads the text fields before the file.
  form.append('memoryId', memoryId);
  form.append('media', file, file.name);
  return client.upload(apiPaths.memoryMediaUpload(), form, { schema: mediaItemSchema, onProgress, signal });
}

export function publishMemory(client: ApiClient, id: string): Promise<Memory> {
  return client.post(apiPaths.memoryPublish(), { id }, { schema: memorySchema });
}

/** After a memory was added: the wall, the counters and one's own list. */
export function useRefreshAfterMemory(memorialId: string) {
  const queryClient = useQueryClient();
  const scope = useViewerScope();
  return () => queryClient.invalidateQueries({ queryKey: memorialKeys.all(scope, memorialId) });
}
