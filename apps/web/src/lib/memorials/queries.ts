import { useQuery } from '@tanstack/react-query';
import { apiPaths } from '@aandenken/contract';
import { useApiClient } from '../api-client.ts';
import { useViewerScope, type ViewerScope } from './scope.tsx';

/**
 * Query keys of one memorial; everything of a memorial starts with `memorialKeys.all(scope, id)`, so a
 * change invalidates that root and nothing it shows is forgotten.
 */
export const memorialKeys = {
  /** Every memorial, in every scope (a new session or guest token sees them anew). */
  root: ['memorial'] as const,
  all: (scope: ViewerScope, id: string) => ['memorial', scope, id] as const,
  detail: (scope: ViewerScope, id: string) => ['memorial', scope, id, 'detail'] as const,
  biography: (scope: ViewerScope, id: string) => ['memorial', scope, id, 'biography'] as const,
  gallery: (scope: ViewerScope, id: string) => ['memorial', scope, id, 'gallery'] as const,
  wall: (scope: ViewerScope, id: string) => ['memorial', scope, id, 'wall'] as const,
  candles: (scope: ViewerScope, id: string) => ['memorial', scope, id, 'candles'] as const,
  manage: (scope: ViewerScope, id: string, part: string) => ['memorial', scope, id, 'manage', part] as const,
  /** The page at a readable address; below the root, so a new session or guest token asks again. */
  bySlug: (scope: ViewerScope, slug: string) => ['memorial', scope, `slug:${slug}`] as const,
};

/** The schemas of the memorial page's reads (schemas.ts), loaded with the first of them. */
let schemas: Promise<typeof import('./schemas.ts')> | undefined;
export const memorialSchemas = () => (schemas ??= import('./schemas.ts'));

/** The signed-in user's memorials with their role ('Mijn Pagina's'). */
export const myMemorialsKey = ['memorials', 'partof'] as const;

/** GET /core/memorial/{id}: what the caller may see, with their role. */
export function useMemorial(id: string, enabled = true) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: memorialKeys.detail(scope, id),
    enabled,
    // A 404 is an answer, not a hiccup: do not ask again.
    retry: false,
    queryFn: async ({ signal }) =>
      client.get(apiPaths.memorial(id), { schema: (await memorialSchemas()).memorialSchema, signal }),
  });
}

/** GET /core/memorial/biography/{memorialId} */
export function useBiography(id: string, enabled = true) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: memorialKeys.biography(scope, id),
    enabled,
    queryFn: async ({ signal }) =>
      client.get(apiPaths.biographyOf(id), { schema: (await memorialSchemas()).biographySchema, signal }),
  });
}

/** GET /core/memorial-media/all/{id}: the gallery in its order. */
export function useGallery(id: string, enabled = true) {
  const client = useApiClient();
  const scope = useViewerScope();
  return useQuery({
    queryKey: memorialKeys.gallery(scope, id),
    enabled,
    queryFn: async ({ signal }) =>
      client.get(apiPaths.gallery(id), { schema: (await memorialSchemas()).mediaListSchema, signal }),
  });
}
