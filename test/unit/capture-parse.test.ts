// Pure helpers of the capture engine: srcset parsing, CSS url()/@import rewriting, word counts.
import { describe, expect, it } from 'vitest';
import { absoluteHttp, rewriteCssUrls } from '../../server/modules/reader/capture/assets.js';
import { countWords, readingMinutes } from '../../server/modules/reader/capture/readability.js';
import { parseSrcset } from '../../server/modules/reader/capture/snapshot.js';

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
