// A build step: the splash in index.html paints before any script is asked for, and the first
// screen's code and data are asked for in one wave (renderer/src/app/boot-loader.ts says how and why).
//
// Vite writes into <head> the entry <script type="module">, a <link rel="modulepreload"> per module
// it imports, and the app's stylesheet <link>: each is asked for before the first paint, and the
// stylesheet holds that paint back. This plugin takes them out and puts, where index.html says
// (`<!-- start-up loader -->`, after #root), a JSON block naming them (and, per page of
// src/app/page-table.ts, the chunks and stylesheets its lazily loaded module needs beyond the
// entry's, read from the bundle's chunk graph) and the loader itself, bundled and minified here from
// src/app/boot-main.ts. server/http/static.ts allows that one inline script by its hash. The build
// fails when a page's module is not a chunk of its own.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import type { BootConfig } from './src/app/boot-loader.js';
import { PAGE_TABLE } from './src/app/page-table.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const MARK = '<!-- start-up loader -->';
const ENTRY = /[ \t]*<script type="module" crossorigin src="([^"]+)"><\/script>\n?/g;
const PRELOAD = /[ \t]*<link rel="modulepreload" crossorigin href="([^"]+)">\n?/g;
const STYLESHEET = /[ \t]*<link rel="stylesheet" crossorigin href="([^"]+)">\n?/g;
/** The JSON block's element in the built index.html (boot-main.ts reads it; tests and the service worker's list too). */
export const CONFIG_ID = 'hearth-boot';

/** The loader's settings as the built index.html carries them. */
export function readBootConfig(html: string): BootConfig {
  const found = new RegExp(`<script type="application/json" id="${CONFIG_ID}">([^<]*)</script>`).exec(html);
  if (!found) throw new Error(`index.html has no #${CONFIG_ID} block`);
  return JSON.parse(found[1]!) as BootConfig;
}

async function loaderCode(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(here, 'src/app/boot-main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0]!.text.trim();
  if (/<\/script|<!--/i.test(code)) throw new Error('the start-up loader cannot be inlined as it is');
  return code;
}

/** Each page module's chunks beyond the entry's (its own, then what it imports) and their stylesheets. */
function pageFiles(bundle: OutputBundle, firstScreen: Set<string>, firstCss: Set<string>): BootConfig['pages'] {
  const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const pages: BootConfig['pages'] = {};
  for (const { module } of PAGE_TABLE) {
    const file = (c: OutputChunk) => c.moduleIds.find((id) => id.replace(/\.tsx?$/, '') === path.join(here, 'src', module));
    const chunk = chunks.find((c) => file(c) !== undefined);
    if (!chunk || firstScreen.has(`/${chunk.fileName}`) || !chunks.some((c) => c.dynamicImports.includes(chunk.fileName))) {
      throw new Error(`page-table.ts: ${module} is not in a lazily loaded chunk (pages.tsx lazyPage)`);
    }
    const js: string[] = [];
    const css = new Set<string>();
    const visit = (c: OutputChunk) => {
      const href = `/${c.fileName}`;
      if (firstScreen.has(href) || js.includes(href)) return;
      js.push(href);
      for (const file of (c as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) if (!firstCss.has(`/${file}`)) css.add(`/${file}`);
      for (const name of c.imports) visit(byName.get(name)!);
    };
    visit(chunk);
    pages[module] = { js, css: [...css] };
  }
  return pages;
}

/** `serviceWorker`: the service worker's URL, registered by the loader once the page has loaded. */
export function startupLoader(options: { serviceWorker?: string } = {}): Plugin {
  return {
    name: 'hearth-startup-loader',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!ctx.bundle) throw new Error('the start-up loader needs the bundle');
        const [head, body] = html.split('</head>');
        if (body === undefined || !body.includes(MARK)) throw new Error(`index.html needs </head> and ${MARK} after #root`);
        const entries = [...head!.matchAll(ENTRY)].map((m) => m[1]!);
        if (entries.length !== 1) throw new Error(`index.html: expected one entry script, found ${entries.length}`);
        const preload = [...head!.matchAll(PRELOAD)].map((m) => m[1]!);
        const css = [...head!.matchAll(STYLESHEET)].map((m) => m[1]!);
        if (css.length === 0) throw new Error('index.html: no stylesheet <link> in <head>');
        const config: BootConfig = {
          entry: entries[0]!,
          preload,
          css,
          pages: pageFiles(ctx.bundle, new Set([entries[0]!, ...preload]), new Set(css)),
          ...(options.serviceWorker ? { serviceWorker: options.serviceWorker } : {}),
        };
        const loader = [
          `<script type="application/json" id="${CONFIG_ID}">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`,
          `<script>${await loaderCode()}</script>`,
        ].join('\n    ');
        return `${head!.replace(ENTRY, '').replace(PRELOAD, '').replace(STYLESHEET, '')}</head>${body.replace(MARK, loader)}`;
      },
    },
  };
}
