// Builds the renderer into dist/renderer, served by Electron from file:// and by `deltaport serve` over HTTP,
// hence relative asset URLs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Inline scripts are forbidden by the CSP, and so are data: URLs for modules.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
