// Prerendering (docs/performance.md): after the client build, renders the public pages with React's static
// renderer into dist/<route>/index.html and the not-found screen into dist/404.html. The untouched shell
// stays as dist/app.html for every other route (rendered in the browser). The server bundle stays in
// dist/ssr/ (prerender.js, with ssr/shell.html: the shell with its stylesheet inline): the server renders the
// public memorial page with it at request time. Part of `vite build`, so `npm run build -w @aandenken/web`
// stays the one build command.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

/** Public pages whose content does not depend on who is looking. */
export const PRERENDERED = [
  '/',
  '/prijzen',
  '/bedrijf',
  '/contact',
  '/privacy',
  '/voorwaarden',
  '/beslotenpagina',
  '/example',
];
const NOT_FOUND = '/__niet-gevonden__';
/** Rendered by the server at request time (apps/server/src/modules/site/memorial-ssr.ts). */
const MEMORIAL_PAGE = 'src/features/memorial-page/memorial-page.tsx';
/** Rendered by the server at request time too (apps/server/src/modules/site/company-ssr.ts). */
const COMPANY_PAGES = 'src/features/companies/companies-pages.tsx';

/**
 * The shell for a server-rendered route: the route chunk's own stylesheet inline too (it would otherwise
 * arrive only with the chunk, after the first paint). Its chunks are not preloaded: measured, on a slow
 * connection they took bandwidth from the HTML and the portrait and delayed the first paint (the page is
 * readable without them; main.tsx requests them at once).
 */
function withRouteChunk(outDir, shell, src) {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8'));
  const inEntry = new Set();
  const walk = (key, seen) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const i of manifest[key].imports ?? []) walk(i, seen);
  };
  walk('index.html', inEntry);
  const route = new Set();
  walk(src, route);
  const chunks = [...route].filter((k) => !inEntry.has(k)).map((k) => manifest[k]);
  const css = chunks.flatMap((c) => c.css ?? []);
  const styles = css.map((f) => `<style>${fs.readFileSync(path.join(outDir, f), 'utf8')}</style>`).join('');
  return shell.replace('</head>', () => `${styles}</head>`);
}

export function prerender() {
  let config;
  return {
    name: 'aandenken-prerender',
    apply: (c, env) => env.command === 'build' && !c.build?.ssr,
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const ssrDir = path.join(outDir, 'ssr');
      {
        await build({
          configFile: path.join(config.root, 'vite.config.ts'),
          root: config.root,
          logLevel: 'warn',
          build: {
            ssr: path.join(config.root, 'src/app/prerender.tsx'),
            outDir: ssrDir,
            emptyOutDir: true,
            copyPublicDir: false,
            minify: false,
          },
          ssr: { noExternal: true },
        });
        const entry = fs.readdirSync(ssrDir).find((f) => /^prerender\.(m?js)$/.test(f));
        const { render } = await import(pathToFileURL(path.join(ssrDir, entry)).href);
        const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        fs.writeFileSync(path.join(outDir, 'app.html'), shell);
        // The stylesheet inline: one request less before the first paint on a slow connection (the CSP
        // allows inline styles, not inline scripts).
        const inlined = shell.replace(
          /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/,
          (tag, href) => {
            const file = path.join(outDir, href);
            return fs.existsSync(file) ? `<style>${fs.readFileSync(file, 'utf8')}</style>` : tag;
          },
        );
        fs.writeFileSync(path.join(ssrDir, 'shell.html'), inlined);
        fs.writeFileSync(
          path.join(ssrDir, 'memorial-shell.html'),
          withRouteChunk(outDir, inlined, MEMORIAL_PAGE),
        );
        fs.writeFileSync(
          path.join(ssrDir, 'company-shell.html'),
          withRouteChunk(outDir, inlined, COMPANY_PAGES),
        );
        const page = (rendered) => {
          // React renders a page's <title> where the page is; it belongs in the head (React hoists it there
          // in the browser too).
          const title = /^<title>[^<]*<\/title>/.exec(rendered)?.[0];
          const body = title ? rendered.slice(title.length) : rendered;
          if (/<script/i.test(body))
            throw new Error(
              `prerendered HTML contains an inline script (blocked by the CSP): ${body.slice(Math.max(0, body.search(/<script/i) - 600), body.search(/<script/i) + 100)}`,
            );
          const head = title ? inlined.replace(/<title>[^<]*<\/title>/, title) : inlined;
          return head.replace('<div id="root"></div>', `<div id="root">${body}</div>`);
        };
        for (const route of PRERENDERED) {
          const file =
            route === '/' ? path.join(outDir, 'index.html') : path.join(outDir, route.slice(1), 'index.html');
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, page(await render(route)));
        }
        fs.writeFileSync(path.join(outDir, '404.html'), page(await render(NOT_FOUND)));
        config.logger.info(`prerender: ${PRERENDERED.length} pages and 404.html; server bundle in ssr/`);
      }
    },
  };
}
