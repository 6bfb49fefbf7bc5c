import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResponseCache } from '../../lib/response-cache.ts';
import { versionedCache } from '../../lib/versioned-cache.ts';

/** What the web build's server bundle (apps/web/src/app/prerender.tsx) exports for these pages. */
interface SsrBundle {
  companyPageRequests(pathname: string, search: string): Array<{ url: string }> | null;
  renderCompanyPage(
    pathname: string,
    search: string,
    answers: unknown[],
  ): Promise<{ html: string; data: string }>;
  SSR_DATA_ID: string;
}

/** The response cache's key for everything about companies (migration 105's trigger notifies it). */
const COMPANIES = 'companies';
/** Rendered pages kept at most (the directory per query, and each company); least recently used go first. */
const MAX_PAGES = 256;

export interface RenderedPage {
  status: 200 | 404;
  html: Buffer;
}

export interface CompanyRenderer {
  /**
   * The directory (`/uitvaartondernemers?q=`) or a company page rendered as an anonymous visitor sees it, with
   * its status: 404 when the API does not show the company (suspended or unknown: the not-found screen,
   * rendered by the page itself so the browser hydrates the same); null when rendering failed (the caller
   * answers the shell).
   */
  page(req: FastifyRequest, pathname: string, search: string): Promise<RenderedPage | null>;
}

/**
 * Request-time rendering of the public company pages, as memorial-ssr.ts does for the memorial page: the data
 * comes from the app's own API routes called in-process without credentials, the rendered page is kept while
 * no company changed (`ResponseCache.versionOf('companies')`, bumped by migration 105's trigger), and
 * concurrent misses share one computation.
 */
export async function createCompanyRenderer({
  app,
  dist,
  responseCache,
  head,
}: {
  app: FastifyInstance;
  dist: string;
  responseCache: ResponseCache;
  /** The page's preview tags (share.ts): the company (null when not shown) or the directory. */
  head: (pathname: string, search: string, company: unknown, html: string) => string;
}): Promise<CompanyRenderer | null> {
  const dir = path.join(dist, 'ssr');
  const entry = fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => /^prerender\.m?js$/.test(f)) : undefined;
  const shellFile = path.join(dir, 'company-shell.html');
  if (!entry || !fs.existsSync(shellFile)) return null;
  let ssr: SsrBundle;
  try {
    ssr = (await import(pathToFileURL(path.join(dir, entry)).href)) as SsrBundle;
  } catch (err) {
    app.log.error({ err }, 'company pages: could not load the server bundle; serving the shell');
    return null;
  }
  if (typeof ssr.renderCompanyPage !== 'function') return null;
  const shell = fs.readFileSync(shellFile, 'utf8');
  if (!shell.includes('<div id="root"></div>')) return null;

  const pages = versionedCache<RenderedPage | null>({ maxEntries: MAX_PAGES, keep: (page) => page !== null });

  async function compute(
    req: FastifyRequest,
    pathname: string,
    search: string,
  ): Promise<RenderedPage | null> {
    const requests = ssr.companyPageRequests(pathname, search);
    if (!requests) return null;
    const answers = await Promise.all(
      requests.map((r) => app.inject({ method: 'GET', url: r.url, remoteAddress: req.ip })),
    );
    if (answers.some((a) => a.statusCode !== 200 && a.statusCode !== 404)) return null;
    const missing = answers.some((a) => a.statusCode === 404);
    const rendered = await ssr.renderCompanyPage(
      pathname,
      search,
      answers.map((a) => (a.statusCode === 404 ? null : (a.json() as unknown))),
    );
    const hoisted = /^(?:<title>[^<]*<\/title>|<link [^>]*>|<meta [^>]*>)*/.exec(rendered.html)![0];
    const body = rendered.html.slice(hoisted.length);
    if (/<script/i.test(body)) throw new Error('the rendered company page contains an inline script');
    const headed = head(
      pathname,
      search,
      missing ? null : (answers[0]?.json() as unknown),
      shell.replace(/<title>[^<]*<\/title>/, (title) =>
        hoisted.includes('<title>') ? hoisted : `${title}${hoisted}`,
      ),
    );
    const html = Buffer.from(
      headed.replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${body}</div><script type="application/json" id="${ssr.SSR_DATA_ID}">${rendered.data}</script>`,
      ),
    );
    return { status: missing ? 404 : 200, html };
  }

  return {
    page(req, pathname, search) {
      return pages.get(
        `${pathname}${search}`,
        () => responseCache.versionOf(COMPANIES),
        () =>
          compute(req, pathname, search).catch((err: unknown) => {
            req.log.error({ err }, 'company page: server rendering failed; answering with the shell');
            return null;
          }),
      );
    },
  };
}
