import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(here, '..', 'dist', 'web');
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '8787'}`;

export default defineConfig({
  root: here,
  plugins: [react(), precompress(outDir)],
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
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
