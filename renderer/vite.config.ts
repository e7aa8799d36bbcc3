import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';
import { readBootConfig, startupLoader } from './first-paint';
import { precompress } from './precompress';
import { VitePWA } from 'vite-plugin-pwa';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..', 'dist', 'web');
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8787'}`;

/** The files every first screen loads (the app's script, the modules it imports, its stylesheets), read from the built page's start-up loader. */
function firstScreenAssets(): Set<string> {
  const { entry, preload, css } = readBootConfig(readFileSync(path.join(outDir, 'index.html'), 'utf8'));
  return new Set([entry, ...preload, ...css].map((href) => href.replace(/^\//, '')));
}

function isShellFile(url: string): boolean {
  if (!url.startsWith('assets/')) return true; // index.html, registerSW.js, the favicon and icons
  if (/^assets\/inter-latin-wght-\w+-[\w-]+\.woff2$/.test(url)) return true; // not latin-ext, greek, cyrillic…
  return firstScreenAssets().has(url);
}

export default defineConfig({
  root: here,
  resolve: {
    // onnxruntime-web (the wake-word detector) without its wasm copied into the build: the browser
    // loads the runtime from the Hearth server (/api/voice/wakewords/runtime/…), which serves it
    // from the installed package
    conditions: ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions],
  },
  plugins: [
    react(),
    // registers the service worker too (vite-plugin-pwa's generateSW writes /sw.js)
    startupLoader({ serviceWorker: '/sw.js' }),
    // Installable, and opens from the home screen while the Hearth computer is off: the service
    // worker precaches the app shell only. /api (the archive view and Reader pages included) and
    // /docs always go to the server, so their own headers and sandbox stay as the server sends them;
    // the app itself says "Hearth is not reachable" when the API does not answer.
    VitePWA({
      registerType: 'autoUpdate',
      // registered by the start-up loader (first-paint.ts), not by a registerSW.js <script> that
      // would be asked for before the first paint
      injectRegister: false,
      manifest: {
        name: 'Hearth',
        short_name: 'Hearth',
        description: 'Your household’s apps, library and helpers, on your own computer.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#b54a22',
        background_color: '#f8f1e7',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // precache what the first screen needs and no more: index.html, the files it loads, the
        // icons and the Latin fonts; a page's own chunk (and Inter's other alphabets) is kept the
        // first time it is used (runtimeCaching below)
        manifestTransforms: [(entries) => ({ manifest: entries.filter((e) => isShellFile(e.url)), warnings: [] })],
        runtimeCaching: [
          {
            // hashed names: a file under /assets never changes, so the copy kept is the answer
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'hearth-assets', expiration: { maxEntries: 200 } },
          },
        ],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/docs(\/|$)/],
        cleanupOutdatedCaches: true,
      },
    }),
    // last, so the service worker and manifest the plugin above writes get their twins too
    precompress(outDir),
  ],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      // A feature's index.ts (its public surface for other features) only re-exports: importing one
      // name through it must not bring the feature's other modules (and their stylesheets) along.
      treeshake: { moduleSideEffects: (id: string) => !/\/renderer\/src\/features\/[^/]+\/index\.ts$/.test(id) },
      output: {
        // The small shared pieces the pages are built from go in one file each instead of one file
        // per module: a page opened cold then fetches its own chunk and one or two of these, not
        // seven half-kilobyte files, and on a phone's line every file waits its turn for one of the
        // browser's six connections (a round trip each). Nothing here loads Radix or another
        // library: those stay in their own chunks, loaded when first used.
        codeSplitting: {
          // only the modules named: what they import stays where it was (react, the API client…)
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'ui-kit',
              test: /\/renderer\/src\/(ui\/(Dialog|ConfirmDialog|DialogActions|useOpenedOnce|IconButton|TextField|useDraft|Sheet|FilePicker|SearchField|UploadProgress|CardList)|features\/apps\/(NotReadyNote|ToolIcon|apps\.css))\b/,
            },
            // the grid/list switch rides with the segmented control it is made of
            { name: 'SegmentedControl', test: /\/renderer\/src\/ui\/(SegmentedControl|CardLayoutSwitch)\b/ },
            // linking a Plex account: the page, and the sign-in flow and queries the profile and the
            // media server's admin page share with it
            { name: 'LinkAccount', test: /\/renderer\/src\/features\/media\/(LinkAccount|PinFlow|link-queries|link-account\.css)\b/ },
            { name: 'reader-kit', test: /\/renderer\/src\/(features\/reader\/(types|parts|queries)|ui\/hooks)\b/ },
            // Everything the entry imports stays in the entry's own file. Left alone, the bundler puts
            // the pieces the entry shares with lazy pages (the API client, the JSX runtime, the icons,
            // TanStack's mutation hook) in files of their own, each one more request beside the entry
            // before the first screen; the pages import them from the entry instead, which is always
            // loaded first. Only the bundler's own half-kilobyte runtime stays beside it.
            { name: 'index', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  server: {
    // In development the API is proxied, so the browser sees one origin (the origin guard and the
    // SameSite cookie work exactly as in production).
    proxy: {
      '/api': {
        target: apiTarget,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (req) => {
            if (req.getHeader('origin')) req.setHeader('origin', apiTarget);
          });
        },
      },
      '/docs': { target: apiTarget, changeOrigin: true },
    },
  },
});
