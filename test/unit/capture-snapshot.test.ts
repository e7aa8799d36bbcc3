// The snapshot cleaner on a static page: inert markup, <base> honoured then removed, lazy-image
// conventions, <noscript> fallbacks, frames replaced by links, nothing left pointing at the network.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { AssetStore, type SeenResponse } from '../../server/modules/reader/capture/assets.js';
import { buildSnapshot } from '../../server/modules/reader/capture/snapshot.js';
import { createSsrfGuard } from '../../server/platform/ssrf.js';
import { makeTempDir } from '../harness/temp-dir.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe('buildSnapshot', () => {
  it('makes a static page inert and local', async () => {
    const t = makeTempDir();
    const guard = createSsrfGuard();
    const seen = new Map<string, SeenResponse>([
      ['https://cdn.example.org/img/a.png', { status: 200, contentType: 'image/png', body: PNG }],
      ['https://cdn.example.org/img/lazy.png', { status: 200, contentType: 'image/png', body: Buffer.concat([PNG, Buffer.from('lazy')]) }],
      ['https://cdn.example.org/img/ns.png', { status: 200, contentType: 'image/png', body: Buffer.concat([PNG, Buffer.from('ns')]) }],
      ['https://cdn.example.org/s.css', { status: 200, contentType: 'text/css', body: Buffer.from('p{background:url(img/a.png)}') }],
    ]);
    try {
      const html = `<!doctype html><html><head><base href="https://cdn.example.org/"><meta http-equiv="refresh" content="0;url=https://evil.example/">
<link rel="stylesheet" href="s.css"><link rel="canonical" href="https://example.org/a"><link rel="preconnect" href="https://t.example"><script src="https://t.example/t.js"></script></head>
<body onload="x()"><a href="javascript:alert(1)">js</a><a href="/page">rel</a>
<img src="img/a.png" onerror="x()"><img class="lazy" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="img/lazy.png">
<img src="spacer.gif"><noscript><img src="img/ns.png"></noscript>
<iframe src="https://video.example/embed/1"></iframe><object data="https://x.example/f.swf"></object>
<img src="https://gone.example/x.png"><div style="background:url(https://gone.example/bg.png)">bg</div>
<form action="https://example.org/post"><button formaction="javascript:x()">go</button></form></body></html>`;
      const store = new AssetStore({ guard, outDir: t.dir, seen, fetchMissing: false });
      const out = await buildSnapshot(html, 'https://example.org/a', store, { rendered: false });
      const doc = new JSDOM(out).window.document;
      expect(doc.querySelector('base, meta[http-equiv], script, iframe, object, link[rel=canonical], link[rel=preconnect]')).toBeNull();
      expect(out).not.toMatch(/\son\w+=|javascript:/i);
      expect(doc.querySelectorAll('a')[1]!.getAttribute('href')).toBe('https://cdn.example.org/page');
      const imgs = Array.from(doc.querySelectorAll('img')).map((i) => i.getAttribute('src'));
      expect(imgs.filter((s) => s?.startsWith('assets/')).length).toBe(3); // a.png, the data-src swap, the noscript fallback
      expect(imgs.some((s) => s && /gone\.example|spacer/.test(s))).toBe(false);
      expect(doc.querySelector('a.hearth-frame-placeholder')!.getAttribute('href')).toBe('https://video.example/embed/1');
      expect(doc.querySelector('div')!.getAttribute('style')).toContain('about:blank');
      expect(doc.querySelector('form')!.hasAttribute('action')).toBe(false);
      const cssHref = doc.querySelector('link[rel=stylesheet]')!.getAttribute('href')!;
      expect(cssHref).toMatch(/^assets\/[0-9a-f]{32}\.css$/);
      expect(readFileSync(path.join(t.dir, cssHref), 'utf8')).toMatch(/url\("[0-9a-f]{32}\.png"\)/);
    } finally {
      await guard.close();
      t.remove();
    }
  });
});
