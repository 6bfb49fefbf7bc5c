import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { accessCodeSchema, errorCodes, isAppPath, routes } from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { createMemorialRenderer, NOT_SHOWN } from './memorial-ssr.ts';
import { CANDLE_FORM, CANDLE_LIT, lightFromForm, withCandleFormError } from './candle-form.ts';
import { createCompanyRenderer } from './company-ssr.ts';
import { htmlForTheme, themeFromCookie } from '../../shared/theme.ts';
import { isUuid } from '../../lib/ids.ts';
import { genericPreview, withPreview, type Preview } from './preview.ts';
import { shareService, type CompanyForPreview, type MemorialForPreview, type ShareImage } from './share.ts';

const MEMORIAL_PATH = /^\/memorial\/([^/]+)$/;
/** The readable address of a memorial page (its slug, migration 131). */
const SLUG_PATH = /^\/gedenkpagina\/([a-z0-9]+(?:-[a-z0-9]+)*)$/;
/** The directory and the company pages: rendered per request (company-ssr.ts). */
const COMPANY_PATH = /^\/uitvaartondernemers(\/[a-z0-9]+(-[a-z0-9]+)*)?$/;

/** The prerendered pages with a form (components/form/form.tsx posts to the page itself). */
const FORM_PAGES = [routes.privatePage, routes.contact, routes.partner, routes.createMemorial] as const;

const defaultDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');

/** Prerendered pages live at dist/<route>/index.html; everything else falls back to the shell. */
function loadPages(dist: string, preview: (route: string) => Preview): Map<string, Buffer> {
  const pages = new Map<string, Buffer>();
  const walk = (dir: string, route: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'assets')
        walk(path.join(dir, entry.name), `${route}/${entry.name}`);
      else if (entry.name === 'index.html')
        pages.set(route || '/', read(path.join(dir, entry.name), route || '/'));
    }
  };
  // Every page gets its preview tags once, here: the site's pages Aandenken's own, with their address.
  const read = (file: string, route: string) =>
    Buffer.from(withPreview(fs.readFileSync(file, 'utf8'), preview(route)));
  walk(dist, '');
  const notFound = path.join(dist, '404.html');
  if (fs.existsSync(notFound)) pages.set('404', read(notFound, '404'));
  // The bare shell for routes rendered in the browser only (index.html is then the prerendered landing page).
  const shell = path.join(dist, 'app.html');
  if (fs.existsSync(shell)) pages.set('shell', read(shell, 'shell'));
  return pages;
}

/** The sitemap protocol's XML (sitemaps.org), at most 50,000 addresses. */
function sitemapXml(urls: Array<{ loc: string; lastmod?: string }>): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map(
      (u) => `  <url><loc>${esc(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>\n`,
    )
    .join('')}</urlset>\n`;
}

/**
 * Serves the built single-page app: hashed assets cached for a year, HTML never cached.
 * Known routes (the contract's `routes`) get the app with 200; any other path gets the not-found screen with 404,
 * and unknown /core paths a JSON 404. A memorial page the API does not show an anonymous caller (missing,
 * private, concept, archived, or not an id at all) is a 404 with the plain shell, byte for byte the same
 * in every case: the browser then asks the API with its own token (a member, a guest with the code) and
 * shows the page, or the screen that offers the access code.
 */
export const sitePlugin =
  ({
    config,
    responseCache,
    db,
    storage,
  }: Pick<Deps, 'config' | 'responseCache' | 'db' | 'storage'>): FastifyPluginAsync =>
  async (app) => {
    const dist = path.resolve(config.WEB_DIST_DIR ?? defaultDist);
    const built = fs.existsSync(path.join(dist, 'index.html'));
    const share = shareService({ db, storage, config });
    const origin = config.PUBLIC_URL;
    // The site's own pages are listed; the shell (every page of one person or one link: manage, account,
    // the guestbook's, an invitation's and a handover's links, mail links) and the not-found page are not.
    const sitePreview = (route: string) =>
      route === 'shell' || route === '404'
        ? genericPreview(origin, { noindex: true })
        : genericPreview(origin, { url: `${origin}${route}`, noindex: false });
    const pages = built ? loadPages(dist, sitePreview) : new Map<string, Buffer>();

    if (built) {
      await app.register(fastifyStatic, {
        root: dist,
        index: false,
        wildcard: false,
        globIgnore: ['**/index.html', '404.html', 'app.html', 'ssr/**'],
        setHeaders(reply: FastifyReply, filePath: string) {
          const rel = path.relative(dist, filePath);
          reply.header(
            'cache-control',
            rel.startsWith(`assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'public, max-age=3600',
          );
        },
      } as Parameters<typeof fastifyStatic>[1]);
    }

    // The public memorial page is rendered per request (memorial-ssr.ts) when the build has its server bundle.
    const memorials = built
      ? await createMemorialRenderer({
          app,
          dist,
          responseCache,
          head: async (memorial, html) =>
            withPreview(html, await share.memorialPreview(memorial as MemorialForPreview)),
        })
      : null;
    const companies = built
      ? await createCompanyRenderer({
          app,
          dist,
          responseCache,
          head: (pathname, search, company, html) =>
            withPreview(
              html,
              pathname === routes.companyDirectory
                ? share.directoryPreview(search)
                : company
                  ? share.companyPreview(company as CompanyForPreview)
                  : genericPreview(origin, { noindex: true }),
            ),
        })
      : null;

    // robots.txt and the sitemap (docs/decisions/020-search-engines.md): what search engines may list.
    app.get('/robots.txt', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(share.robots()),
    );
    app.get('/sitemap.xml', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(sitemapXml(await share.sitemap())),
    );

    // The share images of the previews: a stable address per page, the version in the ETag (and in the `v`
    // the page's tags add, so a preview that changed is fetched anew). Only what an anonymous visitor may
    // see: a private page's address answers 404, the same as a missing one.
    const sendImage = async (
      req: { headers: Record<string, unknown> },
      reply: FastifyReply,
      image: ShareImage,
    ) => {
      const etag = `"${image.version}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'public, max-age=86400')
        .header('x-robots-tag', 'noindex');
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('image/png').send(await image.png());
    };
    const noImage = (reply: FastifyReply) =>
      reply
        .status(404)
        .header('cache-control', 'no-cache')
        .send({ code: errorCodes.notFound, message: 'Deze afbeelding bestaat niet.' });
    app.get('/deelbeeld/aandenken.png', { schema: { hide: true } }, (req, reply) =>
      sendImage(req, reply, share.generic),
    );
    app.get<{ Params: { file: string } }>(
      '/deelbeeld/gedenkpagina/:file',
      { schema: { hide: true } },
      async (req, reply) => {
        const id = /^(.+)\.png$/.exec(req.params.file)?.[1];
        if (!id || !isUuid(id)) return noImage(reply);
        const res = await app.inject({ url: `/core/memorial/${id}`, remoteAddress: req.ip });
        if (res.statusCode !== 200) return noImage(reply);
        return sendImage(req, reply, await share.memorialImage(res.json<MemorialForPreview>()));
      },
    );
    app.get<{ Params: { file: string } }>(
      '/deelbeeld/uitvaartondernemer/:file',
      { schema: { hide: true } },
      async (req, reply) => {
        const slug = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.png$/.exec(req.params.file)?.[1];
        if (!slug) return noImage(reply);
        const res = await app.inject({ url: `/core/public/companies/${slug}`, remoteAddress: req.ip });
        if (res.statusCode !== 200) return noImage(reply);
        return sendImage(req, reply, share.companyImage(res.json<CompanyForPreview>()));
      },
    );

    // The not-found handler is not a route, so @fastify/compress does not see it: the pages are compressed
    // here, once (Brotli and gzip), for the first paint on a slow connection (docs/performance.md).
    // A rendered memorial page is compressed on first use, faster (it changes with every candle); a WeakMap:
    // gone with the page.
    const compressed = new WeakMap<Buffer, { br?: Buffer; gzip?: Buffer }>();
    const encoded = (html: Buffer, encoding: 'br' | 'gzip', quick = false) => {
      let c = compressed.get(html);
      if (!c) compressed.set(html, (c = {}));
      return (c[encoding] ??=
        encoding === 'br'
          ? zlib.brotliCompressSync(html, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quick ? 6 : 11 },
            })
          : zlib.gzipSync(html, { level: quick ? 6 : 9 }));
    };
    // The built pages' best compression is made off the main thread after start (it took a second of CPU
    // before the first request could be answered); until it is there, a page is compressed on first use.
    const brotliAsync = promisify(zlib.brotliCompress);
    const gzipAsync = promisify(zlib.gzip);
    void (async () => {
      for (const html of new Set(pages.values())) {
        const br = await brotliAsync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
        const gzip = await gzipAsync(html, { level: 9 });
        const c = compressed.get(html) ?? {};
        compressed.set(html, { ...c, br, gzip });
      }
    })().catch((err: unknown) => app.log.warn({ err }, 'pages could not be precompressed'));
    // Every page arrives in the visitor's theme (theme.ts, docs/decisions/007): no script before the first paint.
    const sendHtml = (reply: FastifyReply, status: number, page: Buffer, quick = false) => {
      // The shell and the not-found page say so in their head too; the header reaches every crawler.
      if (page === pages.get('shell') || page === pages.get('404') || status === 404)
        reply.header('x-robots-tag', 'noindex');
      const html = htmlForTheme(page, themeFromCookie(reply.request.headers.cookie));
      reply
        .status(status)
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding, cookie')
        .type('text/html; charset=utf-8');
      const accept = String(reply.request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accept) ? 'br' : /\bgzip\b/.test(accept) ? 'gzip' : null;
      if (!encoding) return reply.send(html);
      return reply.header('content-encoding', encoding).send(encoded(html, encoding, quick));
    };

    // A form sent before the page's script has run (a tap on a slow phone) is a plain browser POST: the
    // forms say method="post", so nothing typed lands in an address, a history or a log. It is answered with
    // the page again; a well-formed access code travels on in the fragment (never sent to a server), where
    // the page picks it up and opens the memorial (features/private-page/code-from-link.tsx).
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        ['application/x-www-form-urlencoded', 'multipart/form-data'],
        { parseAs: 'string', bodyLimit: 64 * 1024 },
        (req, body, done) =>
          done(
            null,
            String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')
              ? Object.fromEntries(new URLSearchParams(body as string))
              : {},
          ),
      );
      for (const page of FORM_PAGES) {
        scope.post(page, { schema: { hide: true } }, async (req, reply) => {
          const form = (req.body ?? {}) as Record<string, unknown>;
          const text = (name: string) => (typeof form[name] === 'string' ? form[name].trim() : '');
          let to: string = page;
          if (page === routes.privatePage) {
            // The page a link named stays named; the code as the card prints it ('9330 7666') counts too.
            const named = (req.query as Record<string, unknown>).pagina;
            if (typeof named === 'string' && isUuid(named)) to += `?pagina=${named}`;
            const code = accessCodeSchema.safeParse(text('accessCode'));
            if (code.success) to += `#code=${code.data}`;
          }
          // The names are the create flow's query parameters anyway: the form is prefilled with them.
          if (page === routes.createMemorial && (text('firstName') || text('lastName')))
            to += `?${new URLSearchParams({ firstName: text('firstName'), lastName: text('lastName') })}`;
          return reply.header('cache-control', 'no-store').redirect(to, 303);
        });
      }
      // A memorial page's candle form (candle-form.ts): lit, the page again at its confirmation; refused, the
      // page with the form as it was sent and the reason. Another of the page's forms gets the page again.
      const memorialForm = async (req: FastifyRequest, reply: FastifyReply, id: string, slug?: string) => {
        const address = req.url.split('?')[0]!;
        const form = (req.body ?? {}) as Record<string, unknown>;
        // Sent from another site's page (a browser says so): lights nothing in the visitor's name.
        if (form.formulier !== CANDLE_FORM || !isUuid(id) || req.headers['sec-fetch-site'] === 'cross-site')
          return reply.header('cache-control', 'no-store').redirect(address, 303);
        const result = await lightFromForm(app, req, id, form);
        if (result.ok)
          return reply
            .header('cache-control', 'no-store')
            .redirect(`${address}#${CANDLE_LIT[result.kind]}`, 303);
        const page = memorials ? await memorials.page(req, id, slug) : null;
        if (!(page instanceof Buffer))
          return reply.header('cache-control', 'no-store').redirect(address, 303);
        return sendHtml(
          reply,
          result.status,
          Buffer.from(withCandleFormError(page.toString(), result)),
          true,
        );
      };
      scope.post<{ Params: { id: string } }>('/memorial/:id', { schema: { hide: true } }, (req, reply) =>
        memorialForm(req, reply, req.params.id),
      );
      scope.post<{ Params: { slug: string } }>(
        '/gedenkpagina/:slug',
        { schema: { hide: true } },
        async (req, reply) => {
          const found = SLUG_PATH.test(`/gedenkpagina/${req.params.slug}`)
            ? await app.inject({ url: `/core/memorial/by-slug/${req.params.slug}`, remoteAddress: req.ip })
            : null;
          const id = found?.statusCode === 200 ? found.json<{ id: string }>().id : '';
          return memorialForm(req, reply, id, req.params.slug);
        },
      );
    });

    app.setNotFoundHandler(async (req, reply) => {
      const pathname = decodeURIComponent(req.url.split('?')[0] ?? '/');
      if (
        pathname === '/core' ||
        pathname.startsWith('/core/') ||
        (req.method !== 'GET' && req.method !== 'HEAD')
      ) {
        return reply.status(404).send({ code: errorCodes.notFound, message: 'Deze API-route bestaat niet.' });
      }
      if (!built) {
        return reply
          .status(503)
          .type('text/plain; charset=utf-8')
          .send('De website is nog niet gebouwd. Voer `npm run build` uit of start met `npm start`.');
      }
      const shell = pages.get('shell') ?? pages.get('/')!;
      if (isAppPath(pathname)) {
        const route = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
        // The readable address: the page it names now, a 301 from an address it had before a change of names.
        // What an anonymous visitor may not see is a 404 with the shell, as for the id address below; the
        // browser then asks with its own token (a member's or a guest's old address is followed there).
        const slug = SLUG_PATH.exec(route)?.[1];
        if (slug !== undefined) {
          const found = await app.inject({ url: `/core/memorial/by-slug/${slug}`, remoteAddress: req.ip });
          if (found.statusCode === 404) return sendHtml(reply, 404, shell);
          if (found.statusCode !== 200) return sendHtml(reply, 200, shell);
          const current = found.json<{ id: string; slug: string }>();
          if (current.slug !== slug) {
            return reply
              .header('cache-control', 'no-cache')
              .redirect(routes.memorialBySlug(current.slug), 301);
          }
          const page = memorials
            ? await memorials.page(req, current.id, slug)
            : (await app.inject({ url: `/core/memorial/${current.id}`, remoteAddress: req.ip }))
                  .statusCode === 404
              ? NOT_SHOWN
              : null;
          if (page === NOT_SHOWN) return sendHtml(reply, 404, shell);
          return page ? sendHtml(reply, 200, page, true) : sendHtml(reply, 200, shell);
        }
        const memorialId = MEMORIAL_PATH.exec(route)?.[1];
        if (memorialId !== undefined) {
          if (!isUuid(memorialId)) return sendHtml(reply, 404, shell);
          const page = memorials
            ? await memorials.page(req, memorialId)
            : (await app.inject({ url: `/core/memorial/${memorialId}`, remoteAddress: req.ip }))
                  .statusCode === 404
              ? NOT_SHOWN
              : null;
          if (page === NOT_SHOWN) return sendHtml(reply, 404, shell);
          return page ? sendHtml(reply, 200, page, true) : sendHtml(reply, 200, shell);
        }
        if (COMPANY_PATH.test(route)) {
          // The search only for the directory, and only its `q`: one rendered page per query.
          const q =
            route === routes.companyDirectory
              ? new URLSearchParams(req.url.split('?')[1] ?? '').get('q')
              : null;
          const search = q?.trim()
            ? `?${new URLSearchParams({ q: q.trim().replace(/\s+/g, ' ').slice(0, 100) })}`
            : '';
          const page = companies ? await companies.page(req, route, search) : null;
          return page ? sendHtml(reply, page.status, page.html, true) : sendHtml(reply, 200, shell);
        }
        return sendHtml(reply, 200, pages.get(route) ?? shell);
      }
      return sendHtml(reply, 404, pages.get('404') ?? shell);
    });
  };
