// The content proxy's HTML rewrite: absolute archive-server paths (attributes and CSS url()) onto
// the view base, kiwix's search pager and random link, the base tag, and nothing else touched.
import { describe, expect, it } from 'vitest';
import { decodeSegments, encodeSegments, injection, pathFromLocation, preparePage, rewriteHtml } from '../../server/modules/archives/proxy.js';

const o = { bookHref: '/fixturepedia_en_all_maxi_2024-05', viewBase: '/api/archives/view/pedia/', finalPath: 'A/Water_heater', dark: false };

describe('rewriteHtml', () => {
  it('rewrites CSS url() in style blocks and style attributes, in every quoting', () => {
    const html =
      '<html><head><style>body{background:url(/fixturepedia_en_all_maxi_2024-05/I/a.png)} .x{background:url("/fixturepedia_en_all_maxi_2024-05/I/b.png")}' +
      " .y{background:url( '/fixturepedia_en_all_maxi_2024-05/I/c.png')}</style></head>" +
      '<body><div style="background-image:url(/fixturepedia_en_all_maxi_2024-05/I/d.png)"></div></body></html>';
    const out = rewriteHtml(html, o);
    expect(out).toContain('url(/api/archives/view/pedia/I/a.png)');
    expect(out).toContain('url("/api/archives/view/pedia/I/b.png")');
    expect(out).toContain("url( '/api/archives/view/pedia/I/c.png')");
    expect(out).toContain('url(/api/archives/view/pedia/I/d.png)');
    expect(out).not.toContain('url(/fixturepedia_en_all_maxi_2024-05/');
  });

  it('rewrites absolute href, src and action; leaves relative and other books’ links alone', () => {
    const html =
      '<head></head><a href="/fixturepedia_en_all_maxi_2024-05/A/Heat_pump">h</a><img src=\'/fixturepedia_en_all_maxi_2024-05/I/x.png\'>' +
      '<form action="/fixturepedia_en_all_maxi_2024-05/A/x"></form><a href="../A/Boiler">rel</a><a href="/otherbook/A/x">o</a>';
    const out = rewriteHtml(html, o);
    expect(out).toContain('href="/api/archives/view/pedia/A/Heat_pump"');
    expect(out).toContain("src='/api/archives/view/pedia/I/x.png'");
    expect(out).toContain('action="/api/archives/view/pedia/A/x"');
    expect(out).toContain('href="../A/Boiler"');
    expect(out).toContain('href="/otherbook/A/x"');
  });

  it('maps kiwix’s search pager and random link onto the view, drops its root marker, adds the base tag first in head', () => {
    const html = '<html><head><link type="root" href=""><title>t</title></head><a href="/search?pattern=x&amp;content=b&amp;start=25">next</a><a href="/random?content=fixturepedia_en_all_maxi_2024-05">r</a>';
    const out = rewriteHtml(html, o);
    expect(out).toContain('href="/api/archives/view/pedia/search?pattern=x&amp;content=b&amp;start=25"');
    expect(out).toContain('href="/api/archives/view/pedia/random"');
    expect(out).not.toContain('type="root"');
    expect(out).toMatch(/^<html><head><base href="\/api\/archives\/view\/pedia\/A\/Water_heater">/);
  });

  it('the dark payload only when asked, with the nonce', () => {
    expect(rewriteHtml('<head></head>', o)).not.toContain('color-scheme:dark');
    expect(rewriteHtml('<head></head>', { ...o, dark: true, nonce: 'abc' })).toContain('<script nonce="abc">');
    const device = rewriteHtml('<head></head>', { ...o, followDevice: true, nonce: 'abc' });
    expect(device).toContain('@media (prefers-color-scheme:dark){html{color-scheme:dark}');
    expect(device).toContain('<script nonce="abc">if(matchMedia(');
  });
});

describe('preparePage (the rewrite of a page\'s bytes, around the per-request injection)', () => {
  const pages = [
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Café crème</title><link type="root" href=""></head><body>ü <a href="../A/x">x</a></body></html>',
    '<html><HEAD lang="en"><title>t</title></HEAD><body><header>h</header></body></html>',
    '<html><header>not the head</header><head\n  data-x="1"><title>t</title></head></html>',
    '<p>no head at all</p>',
    '<html><head><style>body{background:url(/fixturepedia_en_all_maxi_2024-05/I/a.png)}</style></head></html>',
    "<html><head><link type='root' href='/kx'></head></html>",
  ];
  it('gives content pages the same bytes as the text rewrite, whether or not they need more than the injection', () => {
    for (const page of pages) {
      for (const dark of [false, true]) {
        const opts = { ...o, dark, nonce: 'n1' };
        const prepared = preparePage(Buffer.from(page), opts);
        const sent = Buffer.concat([prepared.before, Buffer.from(injection(opts)), prepared.after]);
        expect(sent.toString('utf8'), page).toBe(rewriteHtml(page, opts));
      }
    }
  });
});

describe('paths', () => {
  it('decodes and re-encodes per segment; refuses climbing and bad escapes', () => {
    expect(decodeSegments('A/Caf%C3%A9_cr%C3%A8me')).toEqual(['A', 'Café_crème']);
    expect(encodeSegments(['A', 'Why?'])).toBe('A/Why%3F');
    expect(encodeSegments(['A', '100%_Juice'])).toBe('A/100%25_Juice');
    expect(decodeSegments('A/%2E%2E/x')).toBeNull();
    expect(decodeSegments('A/%E0%A4%A')).toBeNull();
  });

  it('reads a Location with a raw ? as part of the path', () => {
    expect(pathFromLocation('/b/A/Why?', '/b')).toEqual(['A', 'Why?']);
    expect(pathFromLocation('http://127.0.0.1:8090/b/A/Caf%C3%A9', '/b')).toEqual(['A', 'Café']);
    expect(pathFromLocation('/other/A/x', '/b')).toBeNull();
  });
});
