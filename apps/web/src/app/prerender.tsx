// The server-side entry (built by scripts/prerender.mjs into dist/ssr/): renders the public pages to HTML at
// build time, and the public memorial page at request time (apps/server/src/modules/site/memorial-ssr.ts), so
// their content paints before any JavaScript runs; main.tsx hydrates it.
import { StrictMode, type ReactElement } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { matchRoutes, StaticRouter } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import { routes } from '@aandenken/contract';
import {
  memorialPageQueries,
  memorialPageRequests,
  memorialSlugQuery,
} from '../features/memorial-page/ssr.ts';
import { companyPageRequests } from '../features/companies/api.ts';
import type { LazyPage } from './lazy-page.ts';
import { AppProviders, createQueryClient } from './providers.tsx';
import { AppRoutes, appRoutes } from './router.tsx';

export { memorialPageRequests, companyPageRequests };

/** The id of the `<script type="application/json">` block main.tsx reads before it hydrates. */
export const SSR_DATA_ID = 'ssr-data';

export async function render(path: string, queryClient?: QueryClient): Promise<string> {
  // The page's chunk loaded first (as main.tsx does before hydrating): no Suspense fallback in the HTML.
  const matches = matchRoutes(appRoutes, path) ?? [];
  await Promise.all(
    matches.map((m) => (m.route.element as ReactElement<unknown, LazyPage> | undefined)?.type?.preload?.()),
  );
  // Waits for every Suspense boundary (unlike renderToString). No progressive chunks: React would move large
  // boundaries behind an inline script, which the CSP does not allow.
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The memorial page as an anonymous visitor sees it, from the API's answers to `memorialPageRequests(id)`
 * (in that order). Returns the rendered markup and the JSON for the data block: the same query-cache entries,
 * which main.tsx puts into the browser's cache before hydrating, so both renders see the same data.
 */
export async function renderMemorial(
  id: string,
  answers: unknown[],
  slug?: string,
): Promise<{ html: string; data: string }> {
  // At its readable address (/gedenkpagina/{slug}) the page finds its id by the slug: that answer is known.
  const queries = [...(slug ? [memorialSlugQuery(slug, id)] : []), ...memorialPageQueries(id, answers)];
  const queryClient = createQueryClient();
  for (const [key, data] of queries) queryClient.setQueryData(key, data);
  const html = await render(slug ? routes.memorialBySlug(slug) : routes.memorial(id), queryClient);
  queryClient.clear();
  // Inside <script> only `</script` and `<!--` could end or disturb it: no `<` is left as it is.
  const data = JSON.stringify({ memorialId: id, queries }).replace(/</g, '\\u003c');
  return { html, data };
}

/**
 * The directory or a company page (`/uitvaartondernemers[/{slug}]`), from the API's answers to
 * `companyPageRequests(pathname, search)` (in that order), with its data block for main.tsx.
 */
export async function renderCompanyPage(
  pathname: string,
  search: string,
  answers: unknown[],
): Promise<{ html: string; data: string }> {
  const requests = companyPageRequests(pathname, search) ?? [];
  // null: the API answered 404 (a company it does not show); the page renders the not-found screen.
  const queries = requests.map(
    (r, i) => [r.key, answers[i] === null ? null : r.schema.parse(answers[i])] as [unknown, unknown],
  );
  const queryClient = createQueryClient();
  for (const [key, data] of queries) queryClient.setQueryData(key as readonly unknown[], data);
  const html = await render(`${pathname}${search}`, queryClient);
  queryClient.clear();
  // `memorialId` names what main.tsx compares a guest token with: never a memorial here.
  const data = JSON.stringify({ memorialId: `page:${pathname}`, queries }).replace(/</g, '\\u003c');
  return { html, data };
}
