// A build step: the splash in index.html paints before the app's stylesheet and scripts arrive.
//
// Vite writes the entry stylesheet's <link> into <head>, where it holds every paint until it has
// loaded; the splash then painted only once the stylesheet and, most runs, the 100 KB main script had
// arrived and run, and Lighthouse counted all of it against the first paint (FCP 1.7 s on its slow
// phone line). This plugin moves that <link> into <body>, right after #root: the browser paints what
// is above an in-body stylesheet (the splash, styled by the few rules index.html inlines) while it
// waits for it, and still runs no module script before every stylesheet the parser has met has
// loaded, so the app itself never draws unstyled.
import type { Plugin } from 'vite';

const STYLESHEET = /[ \t]*<link rel="stylesheet"[^>]*>\n?/g;
const AFTER_ROOT = '<!-- app stylesheets -->';

export function stylesheetAfterSplash(): Plugin {
  return {
    name: 'hearth-stylesheet-after-splash',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const [head, body] = html.split('</head>');
        if (body === undefined || !body.includes(AFTER_ROOT)) throw new Error(`index.html needs </head> and ${AFTER_ROOT} after #root`);
        const links = head!.match(STYLESHEET) ?? [];
        if (links.length === 0) throw new Error('index.html: no stylesheet <link> in <head> to move');
        return `${head!.replace(STYLESHEET, '')}</head>${body.replace(AFTER_ROOT, links.map((l) => l.trim()).join('\n    '))}`;
      },
    },
  };
}
