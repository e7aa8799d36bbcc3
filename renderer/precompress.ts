// A build step: writes a brotli (.br) and a gzip (.gz) twin next to every text file of the built web
// app worth compressing, so the server sends them as they are (server/http/static.ts) and compresses
// nothing per request. It runs last, after every other plugin has written its files.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(js|css|html|svg|json|webmanifest)$/;
/** Below this a file fits one packet anyway. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export function precompress(outDir: string): Plugin {
  return {
    name: 'hearth-precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of files(outDir)) {
          if (!TEXT.test(file) || statSync(file).size < MIN_BYTES) continue;
          const body = readFileSync(file);
          writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
          writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        }
      },
    },
  };
}
