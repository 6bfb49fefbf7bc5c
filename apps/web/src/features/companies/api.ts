import { useQuery, type QueryKey } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { apiPaths, apiPrefix, directorySchema, publicCompanySchema } from '@aandenken/contract';
import { ApiError, useApiClient } from '../../lib/api-client.ts';

/** The directory's query as the server keys it: trimmed, single spaces. */
export const normaliseQuery = (q: string | null | undefined) => (q ?? '').trim().replace(/\s+/g, ' ');

export const companyKeys = {
  page: (slug: string) => ['public-company', slug] as const,
  directory: (q: string) => ['company-directory', q] as const,
};

const directoryUrl = (q: string) =>
  `${apiPaths.companyDirectory()}${q ? `?${new URLSearchParams({ q }).toString()}` : ''}`;

/** The company, or null when the API does not show it (suspended or unknown: the page is the 404 screen). */
export function usePublicCompany(slug: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: companyKeys.page(slug),
    queryFn: ({ signal }) =>
      client
        .get(apiPaths.publicCompany(slug), { schema: publicCompanySchema, signal })
        .catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }),
  });
}

export function useDirectory(q: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: companyKeys.directory(q),
    queryFn: ({ signal }) => client.get(directoryUrl(q), { schema: directorySchema, signal }),
  });
}

/** One API read behind a public company page's first render (see ssr.ts). */
export interface CompanyPageRequest {
  key: QueryKey;
  url: string;
  schema: z.ZodMiniType;
}

/**
 * What the directory (`/uitvaartondernemers?q=`) and a company page (`/uitvaartondernemers/{slug}`) read: the
 * server makes these requests against its own API and renders the page with the answers
 * (apps/server/src/modules/site/company-ssr.ts). Null for any other path.
 */
export function companyPageRequests(pathname: string, search: string): CompanyPageRequest[] | null {
  if (pathname === '/uitvaartondernemers') {
    const q = normaliseQuery(new URLSearchParams(search).get('q'));
    return [
      { key: companyKeys.directory(q), url: `${apiPrefix}${directoryUrl(q)}`, schema: directorySchema },
    ];
  }
  const slug = /^\/uitvaartondernemers\/([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(pathname)?.[1];
  if (!slug) return null;
  return [
    {
      key: companyKeys.page(slug),
      url: `${apiPrefix}${apiPaths.publicCompany(slug)}`,
      schema: publicCompanySchema,
    },
  ];
}
