// Helpers of the capture engine: srcset parsing, CSS url()/@import rewriting, word counts, magic-byte
// extensions, the asset store's SVG sanitizing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { absoluteHttp, AssetStore, rewriteCssUrls, sniffExt } from '../../server/modules/reader/capture/assets.js';
import { countWords, readingMinutes } from '../../server/modules/reader/capture/readability.js';
import { parseSrcset } from '../../server/modules/reader/capture/snapshot.js';
import { createSsrfGuard } from '../../server/platform/ssrf.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('parseSrcset', () => {
  it('splits candidates with and without descriptors', () => {
    expect(parseSrcset('a.jpg 1x, b.jpg 2x')).toEqual([
      { url: 'a.jpg', descriptor: '1x' },
      { url: 'b.jpg', descriptor: '2x' },
    ]);
    expect(parseSrcset('https://x.org/i.jpg?w=320,h=200 320w,https://x.org/i.jpg?w=640 640w')).toEqual([
      { url: 'https://x.org/i.jpg?w=320,h=200', descriptor: '320w' },
      { url: 'https://x.org/i.jpg?w=640', descriptor: '640w' },
    ]);
    expect(parseSrcset('only.png')).toEqual([{ url: 'only.png', descriptor: '' }]);
  });
});

describe('rewriteCssUrls', () => {
  it('maps url() in every quoting and string @import, keeps data: and fragments', async () => {
    const css = `@import "a.css"; @import url('b.css'); x{background:url(c.png)} y{background:url( "d.png" )} z{fill:url(#g);src:url(data:font/woff2;base64,AA==)}`;
    const seen: string[] = [];
    const out = await rewriteCssUrls(css, async (ref) => {
      seen.push(ref);
      return ref === 'c.png' ? null : `L-${ref}`;
    });
    expect(seen.sort()).toEqual(['a.css', 'b.css', 'c.png', 'd.png']);
    expect(out).toContain('@import url("L-a.css")');
    expect(out).toContain('url("L-b.css")');
    expect(out).toContain('url("about:blank")');
    expect(out).toContain('url("L-d.png")');
    expect(out).toContain('url(#g)');
    expect(out).toContain('url(data:font/woff2;base64,AA==)');
  });

  it('absoluteHttp resolves only to http(s)', () => {
    expect(absoluteHttp('../i.png', 'https://x.org/a/b/c.css')).toBe('https://x.org/a/i.png');
    expect(absoluteHttp('javascript:alert(1)', 'https://x.org/')).toBeNull();
    expect(absoluteHttp('data:image/png;base64,AA', 'https://x.org/')).toBeNull();
  });
});

describe('word counts', () => {
  it('counts words, CJK characters, and reading minutes at ~230 wpm with a minimum of 1', () => {
    expect(countWords('The kettle — sang, twice.')).toBe(4);
    expect(countWords('日本語の文章')).toBe(6);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(2300)).toBe(10);
  });
});

describe('sniffExt', () => {
  it('names extensionless assets by their first bytes', () => {
    expect(sniffExt(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffExt(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('jpg');
    expect(sniffExt(Buffer.from('GIF89a....'))).toBe('gif');
    expect(sniffExt(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffExt(Buffer.from('wOF2....'))).toBe('woff2');
    expect(sniffExt(Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe('svg');
    expect(sniffExt(Buffer.from('hello'))).toBeNull();
  });
});

describe('AssetStore', () => {
  it('stores SVG without scripts, handlers or foreignObject, named by content hash', async () => {
    const t = makeTempDir();
    const guard = createSsrfGuard();
    try {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><foreignObject><iframe src="https://x"></iframe></foreignObject><circle r="4"/></svg>');
      const store = new AssetStore({ guard, outDir: t.dir, seen: new Map([['https://example.org/i.svg', { status: 200, contentType: 'image/svg+xml', body: svg }]]), fetchMissing: false });
      const name = await store.localize('https://example.org/i.svg#frag');
      expect(name).toMatch(/^assets\/[0-9a-f]{32}\.svg$/);
      const saved = readFileSync(path.join(t.dir, name!), 'utf8');
      expect(saved).toContain('<circle');
      expect(saved).not.toMatch(/script|onload|foreignObject|iframe/i);
      expect(await store.localize('https://example.org/not-seen.png')).toBeNull();
    } finally {
      await guard.close();
      t.remove();
    }
  });
});
