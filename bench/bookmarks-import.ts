// bookmarks.html import parsing: a synthetic 50,000-bookmark Netscape file (Chrome-like: 250
// folders two levels deep, ADD_DATE, TAGS, <DD> notes, a base64 ICON on one in ten, a few
// javascript:/place: entries and duplicates), parsed in one go and fed in 64 KB chunks.
// Reports wall time, rows per second and heap/RSS growth. BENCH_BOOKMARKS overrides the count.
import v8 from 'node:v8';
import vm from 'node:vm';
import { BookmarksHtmlParser, parseBookmarksHtml } from '../server/modules/reader/bookmarks-html.js';

const COUNT = Number(process.env.BENCH_BOOKMARKS ?? 50_000);
const ICON = `data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA'.repeat(12)}`;

export function synthetic(count: number): string {
  const out = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  const perFolder = Math.ceil(count / 250);
  let n = 0;
  for (let f = 0; n < count; f++) {
    out.push(`    <DT><H3 ADD_DATE="1466011598">Topic ${f} &amp; more</H3>`, '    <DL><p>');
    out.push(`        <DT><H3 ADD_DATE="1466011617">Sub ${f}</H3>`, '        <DL><p>');
    for (let i = 0; i < perFolder && n < count; i++, n++) {
      const href = n % 997 === 0 ? 'javascript:void(0)' : n % 1009 === 0 ? `https://site${n - 1}.example.com/articles/${n - 1}` : `https://site${n}.example.com/articles/${n}?ref=bench&amp;x=${n}`;
      const icon = n % 10 === 0 ? ` ICON="${ICON}"` : '';
      out.push(`            <DT><A HREF="${href}" ADD_DATE="${1466011598 + n}"${icon} TAGS="tag${n % 50},topic${f}">Article number ${n} — a realistic title with “quotes” &amp; entities</A>`);
      if (n % 3 === 0) out.push(`            <DD>A short note about article ${n}, written when it was saved.`);
    }
    out.push('        </DL><p>', '    </DL><p>');
  }
  out.push('</DL><p>', '');
  return out.join('\n');
}

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export async function run(): Promise<void> {
  const html = synthetic(COUNT);
  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;

  let t = performance.now();
  const parsed = parseBookmarksHtml(html);
  const wholeMs = performance.now() - t;
  const rssAfter = process.memoryUsage().rss;
  gc();
  const heapAfter = process.memoryUsage().heapUsed; // with every row still held

  t = performance.now();
  let streamed = 0;
  const parser = new BookmarksHtmlParser(() => streamed++);
  for (let i = 0; i < html.length; i += 65_536) parser.write(html.slice(i, i + 65_536));
  parser.end();
  const streamMs = performance.now() - t;
  if (parsed.total !== streamed) throw new Error('streamed and whole parses disagree');

  const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
  console.log(`bookmarks-import: ${COUNT} entries, file ${mb(Buffer.byteLength(html))} MB`);
  console.log(`  parse whole: ${wholeMs.toFixed(0)} ms (${Math.round(parsed.total / (wholeMs / 1000))} rows/s), ${parsed.bookmarks} bookmarks, ${parsed.errors} errors, ${parsed.folders.length} folders`);
  console.log(`  rows retained: heap +${mb(heapAfter - heap0)} MB after GC; rss +${mb(rssAfter - rss0)} MB right after parsing`);
  console.log(`  parse in 64 KB chunks: ${streamMs.toFixed(0)} ms, ${streamed} rows`);
}
