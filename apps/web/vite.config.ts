import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { renderImages } from './scripts/images.mjs';
import { prerender } from './scripts/prerender.mjs';

/** Renders the SVG illustrations into responsive rasters before anything is bundled or served. */
function illustrations(): Plugin {
  return {
    name: 'aandenken-illustrations',
    async buildStart() {
      await renderImages({ log: (m) => this.info(m) });
    },
  };
}

/** Emits dist/404.html (the same shell) so the server can answer unknown paths with a real 404 page. */
function notFoundPage(): Plugin {
  return {
    name: 'aandenken-404',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type === 'asset')
        this.emitFile({ type: 'asset', fileName: '404.html', source: index.source });
    },
  };
}

/**
 * The built HTML loads the app after the first paint: its module script and preloads become data on
 * `<script src="/boot.js">` (public/boot.js), which adds them once the browser has painted. Measured with
 * Lighthouse on a phone profile: the prerendered page's first paint waited for the app's script.
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'aandenken-start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const app = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!app) throw new Error('startAfterFirstPaint: no module script in index.html');
        const preloads: string[] = [];
        const rest = html
          .replace(app[0], '')
          .replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
            preloads.push(href);
            return '';
          });
        const boot = `<script src="/boot.js" data-app="${app[1]}" data-preload="${preloads.join(' ')}" defer></script>`;
        return rest.replace(/\s*<\/head>/, `\n    ${boot}\n  </head>`);
      },
    },
  };
}

export default defineConfig({
  plugins: [illustrations(), react(), tailwindcss(), notFoundPage(), startAfterFirstPaint(), prerender()],
  // The manifest lets scripts/check-bundle.mjs measure the entry and every lazy chunk.
  // Lazy chunks are named by their hash alone: the entry lists every chunk a route needs (to preload them
  // together), and descriptive names made that list a kilobyte larger in the first download. Hashes in base 36
  // (lower case and digits; 36^8 names): the list of ~150 names compresses by ~100 bytes more than in base 64.
  // The icons (lucide-react, one module of ~0.2 KB each) are grouped by the pages that use them, and a group under
  // 4 KB joins its nearest neighbour: each became a chunk of its own, a request with ~1.2 KB of response headers
  // for a few hundred bytes (the memorial page's first visit: 44 → 35 requests, +2.5 KB gzip; decision 019).
  build: {
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    rolldownOptions: {
      output: {
        chunkFileNames: 'assets/[hash].js',
        hashCharacters: 'base36',
        codeSplitting: {
          groups: [
            {
              name: 'icons',
              test: /node_modules[\\/]lucide-react[\\/]/,
              entriesAware: true,
              entriesAwareMergeThreshold: 4096,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/core': 'http://localhost:8080', '/realms': 'http://localhost:8080' } },
});
