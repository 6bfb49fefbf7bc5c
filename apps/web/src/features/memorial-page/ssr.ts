import type { QueryKey } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import {
  apiPaths,
  apiPrefix,
  biographySchema,
  candlePageSchema,
  mediaListSchema,
  memorialSchema,
  memoryPageSchema,
} from '@aandenken/contract';
import { memorialKeys } from '../../lib/memorials/queries.ts';
import { CANDLES_PAGE_SIZE } from './api/candles.ts';
import { WALL_PAGE_SIZE } from './api/wall.ts';

/** One API read behind the page's first render, as an anonymous visitor's browser would make it. */
export interface MemorialPageRequest {
  key: QueryKey;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** useInfiniteQuery: the answer is its first page. */
  infinite: boolean;
  schema: z.ZodMiniType;
}

/**
 * What the memorial page reads for an anonymous visitor (the queries of memorial-page.tsx and its sections,
 * with the same keys and page sizes). The server makes these requests against its own API and renders the
 * page with the answers (apps/server/src/modules/site/memorial-ssr.ts).
 */
export function memorialPageRequests(id: string): MemorialPageRequest[] {
  return [
    {
      key: memorialKeys.detail('session', id),
      method: 'GET',
      url: `${apiPrefix}${apiPaths.memorial(id)}`,
      infinite: false,
      schema: memorialSchema,
    },
    {
      key: memorialKeys.gallery('session', id),
      method: 'GET',
      url: `${apiPrefix}${apiPaths.gallery(id)}`,
      infinite: false,
      schema: mediaListSchema,
    },
    {
      key: memorialKeys.biography('session', id),
      method: 'GET',
      url: `${apiPrefix}${apiPaths.biographyOf(id)}`,
      infinite: false,
      schema: biographySchema,
    },
    {
      key: memorialKeys.wall('session', id),
      method: 'POST',
      url: `${apiPrefix}${apiPaths.memoryWall()}`,
      body: { memorialId: id, limit: WALL_PAGE_SIZE, cursor: null },
      infinite: true,
      schema: memoryPageSchema,
    },
    {
      key: memorialKeys.candles('session', id),
      method: 'POST',
      url: `${apiPrefix}${apiPaths.candlesQuery()}`,
      body: { memorialId: id, limit: CANDLES_PAGE_SIZE, cursor: null },
      infinite: true,
      schema: candlePageSchema,
    },
  ];
}

/** The answers as query-cache entries: parsed by the same schemas the browser's API client uses. */
export function memorialPageQueries(id: string, answers: unknown[]): Array<[key: QueryKey, data: unknown]> {
  return memorialPageRequests(id).map((r, i) => {
    const data = r.schema.parse(answers[i]);
    return [r.key, r.infinite ? { pages: [data], pageParams: [null] } : data];
  });
}

/** The answer to the readable address's lookup (GET /core/memorial/by-slug/{slug}), as the server found it. */
export function memorialSlugQuery(slug: string, id: string): [key: QueryKey, data: unknown] {
  return [memorialKeys.bySlug('session', slug), { id, slug }];
}
