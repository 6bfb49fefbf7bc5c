import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../../lib/response-cache.ts';
import { versionedCache } from '../../lib/versioned-cache.ts';

/** What the web build's server bundle (apps/web/src/app/prerender.tsx, built into dist/ssr/) exports. */
interface SsrBundle {
  memorialPageRequests(
    id: string,
  ): Array<{ method: 'GET' | 'POST'; url: string; body?: unknown; infinite: boolean }>;
  renderMemorial(id: string, answers: unknown[], slug?: string): Promise<{ html: string; data: string }>;
  SSR_DATA_ID: string;
}

/** The API does not show this memorial to an anonymous caller: missing, private, concept or archived. */
export const NOT_SHOWN = 'not-shown';

export interface MemorialRenderer {
  /**
   * The memorial page rendered as an anonymous visitor sees it, with its data block; `NOT_SHOWN` when
   * the API answers an anonymous caller 404 for it (the caller answers 404 with the plain shell, the same
   * for a private page as for a missing one); null when rendering failed (the shell, 200).
   */
  page(req: FastifyRequest, id: string, slug?: string): Promise<Buffer | typeof NOT_SHOWN | null>;
}

/** The memorial page's own chunk in the web build's manifest (apps/web/src/app/router.tsx loads it). */
const MEMORIAL_PAGE_CHUNK = 'src/features/memorial-page/memorial-page.tsx';

/**
 * One list of module preloads for what the first screen needs: the entry's (already in the shell) and the
 * page's chunk with every chunk it imports, on public/boot.js's `data-preload`, which adds them once the page
 * has painted. The app's own import of the page then finds them in place and adds none (each such link added
 * while the entry evaluates was main-thread work in its longest task). Without a manifest: the shell as it is.
 */
export function withPagePreloads(shell: string, dist: string, pageKey: string): string {
  let manifest: Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as typeof manifest;
  } catch {
    return shell;
  }
  const walk = (key: string, into: Set<string>): Set<string> => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const i of manifest[key].imports ?? []) walk(i, into);
    return into;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey || !manifest[pageKey]) return shell;
  const entry = walk(entryKey, new Set());
  const page = [...walk(pageKey, new Set())]
    .filter((k) => !entry.has(k) && manifest[k]!.file.endsWith('.js'))
    .map((k) => `/${manifest[k]!.file}`);
  return shell.replace(
    /(<script src="\/boot\.js"[^>]*\bdata-preload=")([^"]*)"/,
    (_all, start: string, list: string) =>
      `${start}${[...list.split(' ').filter(Boolean), ...page].join(' ')}"`,
  );
}

/** Rendered pages kept at most (each ~30–150 KB); the least recently used goes first. */
const MAX_PAGES = 256;

/**
 * Request-time rendering of the public memorial page (docs/performance.md). The data comes from the app's
 * own API routes, called in-process without credentials (`inject`), so the page shows exactly what the API
 * shows an anonymous caller, and the shared reads come from the response cache. A rendered page is kept
 * per memorial version (`ResponseCache.versionOf`: bumped by the database triggers' notifications on every
 * change), so it is computed once per version and a change is visible at the next load. Concurrent misses
 * share one computation.
 */
export async function createMemorialRenderer({
  app,
  dist,
  responseCache,
  head,
}: {
  app: FastifyInstance;
  dist: string;
  responseCache: ResponseCache;
  /** The page's preview tags from the API's answer (share.ts); they replace the shell's description. */
  head: (memorial: unknown, html: string) => Promise<string>;
}): Promise<MemorialRenderer | null> {
  const dir = path.join(dist, 'ssr');
  const entry = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => /^prerender\.m?js$/.test(f)) : undefined;
  const shellFile = path.join(dir, 'memorial-shell.html');
  if (!entry || !fs.existsSync(shellFile)) return null;
  let ssr: SsrBundle;
  try {
    ssr = (await import(pathToFileURL(path.join(dir, entry)).href)) as SsrBundle;
  } catch (err) {
    // A broken bundle must not keep the site from starting: memorial pages then render in the browser.
    app.log.error({ err }, 'memorial page: could not load the server bundle; serving the shell');
    return null;
  }
  const shell = withPagePreloads(fs.readFileSync(shellFile, 'utf8'), dist, MEMORIAL_PAGE_CHUNK);
  if (!shell.includes('<div id="root"></div>')) return null;

  const pages = versionedCache<Buffer | typeof NOT_SHOWN | null>({
    maxEntries: MAX_PAGES,
    keep: (html) => html instanceof Buffer,
  });

  async function compute(
    req: FastifyRequest,
    id: string,
    slug: string | undefined,
  ): Promise<Buffer | typeof NOT_SHOWN | null> {
    const requests = ssr.memorialPageRequests(id);
    const ask = (r: (typeof requests)[number]) =>
      app.inject({
        method: r.method,
        url: r.url,
        ...(r.body === undefined ? {} : { payload: r.body as object }),
        // Counted against the visitor, whose browser would otherwise have asked the same.
        remoteAddress: req.ip,
      });
    const [first, ...rest] = requests;
    const memorial = await ask(first!);
    if (memorial.statusCode === 404) return NOT_SHOWN;
    if (memorial.statusCode !== 200) return null;
    const others = await Promise.all(rest.map(ask));
    if (others.some((r) => r.statusCode !== 200)) return null;
    const rendered = await ssr.renderMemorial(
      id,
      [memorial, ...others].map((r) => r.json() as unknown),
      slug,
    );
    // React renders what belongs in the head first (the <title>, the portrait's preload): it takes the
    // place of the shell's title, ahead of the scripts, so the portrait is requested first.
    const hoisted = /^(?:<title>[^<]*<\/title>|<link [^>]*>|<meta [^>]*>)*/.exec(rendered.html)![0];
    const body = rendered.html.slice(hoisted.length);
    if (/<script/i.test(body)) throw new Error('the rendered memorial page contains an inline script');
    // Replacer functions: the page's text may hold `$&` and the like, which a replacement string expands.
    const headed = shell.replace(/<title>[^<]*<\/title>/, (title) =>
      hoisted.includes('<title>') ? hoisted : `${title}${hoisted}`,
    );
    const withPreview = await head(memorial.json(), headed);
    return Buffer.from(
      withPreview.replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${body}</div><script type="application/json" id="${ssr.SSR_DATA_ID}">${rendered.data}</script>`,
      ),
    );
  }

  return {
    page(req, id, slug) {
      // Kept per address as written (the id, or the readable one): the page's links and data block carry
      // it, and the browser reads them by it; both change with the memorial's version.
      return pages.get(
        slug ? `gedenkpagina/${slug}` : id,
        () => responseCache.versionOf(id),
        () =>
          compute(req, id, slug).catch((err: unknown) => {
            req.log.error({ err }, 'memorial page: server rendering failed; answering with the shell');
            return null;
          }),
      );
    },
  };
}
