import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHash, contentTypeOf, isPng, resolveArchivePath, sniff } from '../../server/modules/reader/files.js';
import { buildMatch } from '../../server/modules/search/text.js';
import { framesBlockedBy, iconOf, titleOf } from '../../server/modules/reader/probe-service.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('buildMatch (search input -> FTS5 expression)', () => {
  it('quotes every word, requires all, and makes the last one a prefix', () => {
    expect(buildMatch('cafe')).toBe('"cafe"*');
    expect(buildMatch('  Apple   pie ')).toBe('"Apple" "pie"*');
  });

  it('drops operators, quotes and punctuation so FTS5 syntax never reaches the parser', () => {
    expect(buildMatch('"a" AND (b OR c*) NOT -d:e ^f')).toBe('"a" "AND" "b" "OR" "c" "NOT" "d" "e" "f"*');
    expect(buildMatch('!!!')).toBeNull();
    expect(buildMatch('')).toBeNull();
    expect(buildMatch('"')).toBeNull();
  });

  it('turns a pasted address into its host and path words, without scheme or www', () => {
    expect(buildMatch('https://www.nytimes.com/2024/05/x.html?a=1')).toBe('"nytimes" "com" "2024" "05" "x" "html" "a" "1"*');
    expect(buildMatch('nytimes.com')).toBe('"nytimes" "com"*');
  });

  it('keeps letters with diacritics and caps the number and length of words', () => {
    expect(buildMatch('Café crème')).toBe('"Café" "crème"*');
    expect(buildMatch('w '.repeat(40))!.split(' ')).toHaveLength(16);
    expect(buildMatch('x'.repeat(100))).toBe(`"${'x'.repeat(64)}"*`);
  });
});

describe('contentHash', () => {
  it('ignores case and whitespace differences only', () => {
    expect(contentHash('Hello   World\n')).toBe(contentHash(' hello world'));
    expect(contentHash('Hello World')).not.toBe(contentHash('Hello, World'));
    expect(contentHash('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('content typing', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
  it('uses the extension first, then magic bytes, and never guesses HTML', () => {
    expect(contentTypeOf('a/index.html', Buffer.alloc(0))).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('a/x.PNG', Buffer.alloc(0))).toBe('image/png');
    expect(contentTypeOf('a/x', png)).toBe('image/png');
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniff(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(sniff(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]))).toBe('image/webp');
    expect(sniff(Buffer.from('wOF2....'))).toBe('font/woff2');
    expect(sniff(Buffer.from('%PDF-1.7'))).toBe('application/pdf');
    expect(sniff(Buffer.from('\uFEFF <?xml version="1.0"?><!-- c --><svg xmlns="x">'))).toBe('image/svg+xml');
    expect(sniff(Buffer.from('<html><script>alert(1)</script>'))).toBe('application/octet-stream');
    expect(isPng(png)).toBe(true);
    expect(isPng(Buffer.from('GIF89a'))).toBe(false);
  });
});

describe('resolveArchivePath', () => {
  const temp = makeTempDir();
  const root = path.join(temp.dir, 'item');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), 'x');
  afterAll(() => temp.remove());

  it('maps plain and once-encoded names inside the folder', () => {
    expect(resolveArchivePath(root, 'index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveArchivePath(root, 'assets/a%20b.png')).toBe(path.join(root, 'assets', 'a b.png'));
    // double encoding stays a literal name, never a traversal
    expect(resolveArchivePath(root, '%252e%252e')).toBe(path.join(root, '%2e%2e'));
  });

  it('refuses traversal, absolute paths, backslashes, NUL and bad escapes', () => {
    for (const p of ['', '../x', '..%2fx', '%2e%2e/x', 'a/../../x', '%5c..%5cx', '..\\x', '/etc/passwd', '%2fetc', 'a//b', '.', 'x%00', '%c0%ae', '%']) expect(resolveArchivePath(root, p), p).toBeNull();
  });
});

describe('probe helpers', () => {
  it('framesBlocked from X-Frame-Options and CSP frame-ancestors', () => {
    expect(framesBlockedBy('', '')).toBe(false);
    expect(framesBlockedBy('DENY', '')).toBe(true);
    expect(framesBlockedBy('sameorigin', '')).toBe(true);
    expect(framesBlockedBy('', "default-src 'self'; frame-ancestors 'none'")).toBe(true);
    expect(framesBlockedBy('', 'frame-ancestors https://a.example')).toBe(true);
    expect(framesBlockedBy('', 'frame-ancestors *')).toBe(false);
    expect(framesBlockedBy('', "default-src 'self'")).toBe(false);
  });

  it('title and icon from the page head', () => {
    const base = new URL('https://site.example/a/b');
    expect(titleOf('<TITLE>\n A &amp; B &#8212; C </TITLE>')).toBe('A & B — C');
    expect(titleOf('<p>no title</p>')).toBeNull();
    expect(iconOf('<link rel="stylesheet" href="s.css"><link rel="shortcut icon" href="/fav.png">', base)).toBe('https://site.example/fav.png');
    expect(iconOf("<link href='icon.svg' rel='icon'>", base)).toBe('https://site.example/a/icon.svg');
    expect(iconOf('<link rel="icon" href="javascript:alert(1)">', base)).toBeNull();
  });
});
