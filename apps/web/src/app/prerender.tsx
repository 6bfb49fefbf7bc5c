// Build-time only (scripts/prerender.mjs): renders the public pages to HTML so their content paints
// before any JavaScript runs; main.tsx hydrates it.
import { StrictMode, type ReactElement } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { matchRoutes, StaticRouter } from 'react-router';
import type { LazyPage } from './lazy-page.ts';
import { AppProviders } from './providers.tsx';
import { AppRoutes, appRoutes } from './router.tsx';

export async function render(path: string): Promise<string> {
  // The page's chunk loaded first (as main.tsx does before hydrating): no Suspense fallback in the HTML.
  const matches = matchRoutes(appRoutes, path) ?? [];
  await Promise.all(
    matches.map((m) => (m.route.element as ReactElement<unknown, LazyPage> | undefined)?.type?.preload?.()),
  );
  // Waits for every Suspense boundary (unlike renderToString). No progressive chunks: React would move large
  // boundaries behind an inline script, which the CSP does not allow.
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders>
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
