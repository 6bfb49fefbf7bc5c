// Prerendering (docs/performance.md): after the client build, renders the public pages with React's static
// renderer into dist/<route>/index.html and the not-found screen into dist/404.html. The untouched shell
// stays as dist/app.html for every other route (rendered in the browser). Part of `vite build`, so
// `npm run build -w @aandenken/web` stays the one build command.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

/** Public pages whose content does not depend on who is looking. */
export const PRERENDERED = ['/', '/prijzen', '/bedrijf', '/contact', '/beslotenpagina', '/example'];
const NOT_FOUND = '/__niet-gevonden__';

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
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-ssr-'));
      try {
        await build({
          configFile: path.join(config.root, 'vite.config.ts'),
          root: config.root,
          logLevel: 'warn',
          build: {
            ssr: path.join(config.root, 'src/app/prerender.tsx'),
            outDir: tmp,
            emptyOutDir: true,
            copyPublicDir: false,
            minify: false,
          },
          ssr: { noExternal: true },
        });
        const entry = fs.readdirSync(tmp).find((f) => /^prerender\.(m?js)$/.test(f));
        const { render } = await import(pathToFileURL(path.join(tmp, entry)).href);
        const shell = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        fs.writeFileSync(path.join(outDir, 'app.html'), shell);
        const page = (rendered) => {
          // React renders a page's <title> where the page is; it belongs in the head (React hoists it there
          // in the browser too).
          const title = /^<title>[^<]*<\/title>/.exec(rendered)?.[0];
          const body = title ? rendered.slice(title.length) : rendered;
          if (/<script/i.test(body))
            throw new Error(
              `prerendered HTML contains an inline script (blocked by the CSP): ${body.slice(Math.max(0, body.search(/<script/i) - 600), body.search(/<script/i) + 100)}`,
            );
          let head = title ? shell.replace(/<title>[^<]*<\/title>/, title) : shell;
          // The stylesheet inline: one request less before the first paint on a slow connection (the CSP
          // allows inline styles, not inline scripts).
          head = head.replace(
            /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/,
            (tag, href) => {
              const file = path.join(outDir, href);
              return fs.existsSync(file) ? `<style>${fs.readFileSync(file, 'utf8')}</style>` : tag;
            },
          );
          return head.replace('<div id="root"></div>', `<div id="root">${body}</div>`);
        };
        for (const route of PRERENDERED) {
          const file =
            route === '/' ? path.join(outDir, 'index.html') : path.join(outDir, route.slice(1), 'index.html');
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, page(await render(route)));
        }
        fs.writeFileSync(path.join(outDir, '404.html'), page(await render(NOT_FOUND)));
        config.logger.info(`prerender: ${PRERENDERED.length} pages and 404.html`);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  };
}
