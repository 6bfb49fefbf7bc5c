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

export default defineConfig({
  plugins: [illustrations(), react(), tailwindcss(), notFoundPage(), prerender()],
  // The manifest lets scripts/check-bundle.mjs measure the entry and every lazy chunk.
  build: { sourcemap: false, target: 'es2022', manifest: true },
  server: { proxy: { '/core': 'http://localhost:8080', '/realms': 'http://localhost:8080' } },
});
