import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { minifyCssLiteralsPlugin } from './build/minify-css-literals.js';
import { precompressPlugin } from './build/precompress.js';

const BACKGROUND = '#0e1116';

/**
 * vite-plugin-pwa 2.0.0 builds the service worker as one file with rollup's
 * `inlineDynamicImports`, which rolldown (vite 8) has deprecated for `codeSplitting: false`
 * and warns about on every build. The same setting under its new name, until the plugin
 * changes it.
 */
function serviceWorkerInOneFile(): Plugin {
  return {
    name: 'pocketmux:service-worker-in-one-file',
    config(config) {
      // Vite 8 keeps the options under both names.
      for (const options of [config.build?.rollupOptions, config.build?.rolldownOptions]) {
        const output = options?.output;
        if (!output || Array.isArray(output) || !('inlineDynamicImports' in output)) continue;
        const { inlineDynamicImports } = output;
        delete output.inlineDynamicImports;
        output.codeSplitting = !inlineDynamicImports;
      }
    },
  };
}

export default defineConfig({
  root: 'pwa',
  publicDir: 'public',
  build: {
    outDir: '../dist/pwa',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser that can run the app supports modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    // xterm is one large module by design; it loads only when a terminal opens.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the first screen runs, in one file. Left to itself the bundler cuts out
            // what the first screen shares with a lazy screen that does not load the first
            // screen's file (the new-Claude sheet, the add-workspace form) into small files of
            // their own: more requests, and each compressed alone, about 3 KB more as sent.
            { name: 'first-screen', tags: ['$initial'], priority: 2 },
            // The small modules lazy screens share (the time words, the confirmation bar...) in
            // one file rather than a request each.
            { name: 'lazy-shared', minShareCount: 2, maxModuleSize: 2048, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    // `vite` in dev proxies the API to an agent started with `--port 8420`.
    proxy: {
      '/api': { target: 'http://127.0.0.1:8420', ws: true, changeOrigin: false },
    },
  },
  plugins: [
    minifyCssLiteralsPlugin(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'pocketmux',
        short_name: 'pocketmux',
        description: 'Your tmux shells and Claude Code sessions, on your phone and in the browser.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: BACKGROUND,
        background_color: BACKGROUND,
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      injectManifest: {
        // Icons and the manifest are added by the plugin from `manifest` and `includeAssets`.
        globPatterns: ['**/*.{js,css,html}'],
        buildPlugins: { vite: [serviceWorkerInOneFile()] },
      },
      devOptions: { enabled: false },
    }),
    // After the PWA plugin: its service worker is among the files compressed.
    precompressPlugin(),
  ],
});
