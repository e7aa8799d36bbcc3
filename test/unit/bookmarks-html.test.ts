// bookmarks.html import/export over the real-export corpus in test/fixtures/bookmarks (SOURCE.md
// there says where each file comes from). Expected values were read off the files themselves.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BookmarksHtmlParser,
  parseAddDate,
  parseBookmarksHtml,
  parseBookmarksHtmlInSlices,
  parseTags,
  type BookmarkRow,
  type ParsedBookmark,
  type ParsedBookmarksFile,
} from '../../server/modules/reader/bookmarks-html.js';
import { writeBookmarksHtml } from '../../server/modules/reader/bookmarks-html-write.js';

const dir = join(import.meta.dirname, '../fixtures/bookmarks');
const load = (name: string): ParsedBookmarksFile => parseBookmarksHtml(readFileSync(join(dir, name), 'utf8'));
const bookmarks = (f: ParsedBookmarksFile): ParsedBookmark[] => f.rows.filter((r): r is ParsedBookmark => r.kind === 'bookmark');
const byUrl = (f: ParsedBookmarksFile, url: string): ParsedBookmark => {
  const b = bookmarks(f).find((r) => r.url === url);
  if (!b) throw new Error(`no bookmark ${url}`);
  return b;
};
const secs = (d: Date | null) => (d ? d.getTime() / 1000 : null);
const foldersCount = (f: ParsedBookmarksFile) => {
  const counts: Record<string, number> = {};
  for (const b of bookmarks(f)) counts[b.folder ?? '(top)'] = (counts[b.folder ?? '(top)'] ?? 0) + 1;
  return counts;
};

describe('parseBookmarksHtml over the real exports', () => {
  it('Firefox (nested, place: smart bookmarks, tags, descriptions, double-escaped entity)', () => {
    const f = load('shaarli-firefox_nested.htm');
    expect(f.format).toBe('netscape');
    expect(f.total).toBe(24);
    expect(f.bookmarks).toBe(21);
    // The three place: smart bookmarks are skipped and reported with their index and title.
    const errors = f.rows.filter((r) => r.kind === 'error');
    expect(errors.map((e) => [e.index, e.title, e.code])).toEqual([
      [0, 'Recently saved', 'unsupported_scheme'],
      [1, 'Recent tags', 'unsupported_scheme'],
      [22, 'Most visited', 'unsupported_scheme'],
    ]);
    expect(errors[0]!.url).toMatch(/^place:folder=BOOKMARKS_MENU/);
    // Dev > PHP: the nearest heading wins; the toolbar folder is a browser root, not a collection.
    expect(foldersCount(f)).toEqual({ '(top)': 2, Comics: 4, Dev: 7, PHP: 2, FLOSS: 5, Games: 1 });
    expect(f.folders).toEqual(['Comics', 'Dev', 'PHP', 'FLOSS', 'Games']);
    const getting = byUrl(f, 'https://www.mozilla.org/en-US/firefox/central/');
    expect(getting).toMatchObject({ title: 'Getting Started', folder: null });

    const xkcd = byUrl(f, 'http://xkcd.com/1332/');
    expect(xkcd).toMatchObject({ title: 'xkcd: Slippery Slope', folder: 'Comics', tags: ['xkcd', 'webcomic', 'slope', 'respect'] });
    expect(secs(xkcd.addDate)).toBe(1463687035);
    expect(xkcd.description).toBeNull(); // an empty <DD>

    const lotr = bookmarks(f)[0]!;
    expect(lotr.title).toBe('Timeline of the Elves in Tolkien’s works | LotrProject Blog');
    expect(lotr.folder).toBeNull();
    expect(lotr.tags).toHaveLength(8);

    // `&amp;#8230;` decodes once, to the literal text `&#8230;`.
    const teapot = byUrl(f, 'http://nautil.us/blog/the-most-important-object-in-computer-graphics-history-is-this-teapot');
    expect(teapot.description).toMatch(/^Let’s play a game\./);
    expect(teapot.description!.endsWith('you figure out&#8230;')).toBe(true);
    const meetup = byUrl(f, 'http://whistlestudios.com/2016/03/how-to-run-a-meetup-without-giving-up-your-life/');
    expect(meetup.description).toMatch(/you're probably doing it wrong/);
    expect(byUrl(f, 'https://github.com/kafene/netscape-bookmark-parser')).toMatchObject({
      folder: 'PHP',
      tags: ['github', 'netscape', 'parser'],
      description: 'netscape-bookmark-parser - a php script (function) to parse netscape format bookmark files',
    });
    // A folder's own <DD> ("Comics, webcomics, fun stuff!") is not given to any bookmark.
    expect(bookmarks(f).some((b) => b.description?.includes('webcomics, fun'))).toBe(false);
    // ICON data: URIs never leak into any field.
    expect(JSON.stringify(f.rows)).not.toContain('base64');
  });

  it('Chromium (toolbar root, Dev > PHP / Python, odd spacing in a folder name, UTF-8 titles)', () => {
    const f = load('shaarli-chromium_nested.htm');
    expect(f.total).toBe(18);
    expect(f.errors).toBe(0);
    expect(foldersCount(f)).toEqual({
      '(top)': 4,
      PHP: 2,
      Python: 3,
      Dev: 2,
      MOOC: 2,
      'Linux, Unix OS,Other stuff': 1,
      'Self-hosting': 4,
    });
    expect(byUrl(f, 'http://www.jabber.org/').folder).toBeNull(); // inside "Personal toolbar"
    expect(byUrl(f, 'https://checkio.org/')).toMatchObject({ title: 'Welcome :: CheckiO', folder: 'Python', tags: [] });
    expect(byUrl(f, 'https://tox.readthedocs.io/en/latest/').title).toBe(
      'Welcome to the tox automation project — tox 2.3.2 documentation',
    );
    expect(byUrl(f, 'https://framasoft.org/').title).toBe('Framasoft ~ Page portail du réseau');
    expect(secs(byUrl(f, 'https://owncloud.org/').addDate)).toBe(1466013448);
    expect(JSON.stringify(f.rows)).not.toContain('data:image');
  });

  it('Internet Explorer 11 (BOM, FOLDED bare attribute, space before >, empty folder)', () => {
    const raw = readFileSync(join(dir, 'shaarli-internet_explorer_11_nested.htm'), 'utf8');
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    const f = parseBookmarksHtml(raw);
    expect(f.format).toBe('netscape');
    expect(f.total).toBe(27);
    expect(f.errors).toBe(0);
    expect(foldersCount(f)).toEqual({
      Comics: 2,
      PHP: 1,
      Python: 2,
      SCM: 3,
      Dev: 6,
      'Microsoft Websites': 5,
      Music: 2,
      'Windows Live': 4,
      '(top)': 2,
    });
    expect(f.folders).not.toContain('Links'); // empty folder
    expect(byUrl(f, 'http://phpsadness.com/')).toMatchObject({ title: 'PHP Sadness', folder: 'PHP' });
    expect(secs(byUrl(f, 'http://phpsadness.com/').addDate)).toBe(1466269615);
    expect(byUrl(f, 'http://lmgtfy.com/')).toMatchObject({ title: 'Let me google that for you', folder: null });
    expect(byUrl(f, 'http://go.microsoft.com/fwlink/?LinkId=69172').title).toBe('Get Windows Live');
  });

  it('Safari (no outer <DL>, no ADD_DATE, French root folders, empty folder, nested folder)', () => {
    const f = load('shaarli-safari_folded.htm');
    expect(f.total).toBe(3);
    expect(bookmarks(f).map((b) => [b.folder, b.title, b.url, b.addDate])).toEqual([
      [null, 'GitHub', 'https://github.com/', null], // in "Favoris", Safari's favourites bar
      [
        'Github - Shaarli',
        'GitHub - shaarli/Shaarli: The personal, minimalist, super-fast, database free, bookmarking service - community repo',
        'https://github.com/shaarli/Shaarli',
        null,
      ],
      ['doc', 'Wikipedia, the free encyclopedia', 'https://en.wikipedia.org/wiki/Main_Page', null], // Autre Divers > doc
    ]);
    expect(f.folders).toEqual(['Github - Shaarli', 'doc']);
  });

  it('Google Bookmarks (no DOCTYPE, ADD_DATE in microseconds, "Unlabeled" label is the root)', () => {
    const f = load('shaarli-google_bookmarks_nested.htm');
    expect(f.format).toBe('netscape');
    expect(f.total).toBe(6);
    expect(f.folders).toEqual([]);
    const hippo = byUrl(f, 'https://www.wordhippo.com/');
    expect(hippo.title).toBe('WordHippo | Comprehensive Thesaurus for Synonyms and Antonyms');
    expect(hippo.folder).toBeNull();
    // 1515515697780642 µs = 2018-01-09T16:34:57.780Z
    expect(hippo.addDate!.toISOString()).toBe('2018-01-09T16:34:57.781Z');
    for (const b of bookmarks(f)) {
      expect(b.addDate!.getUTCFullYear()).toBeGreaterThanOrEqual(2018);
      expect(b.addDate!.getUTCFullYear()).toBeLessThanOrEqual(2018);
    }
    expect(byUrl(f, 'https://nextace.com/').title).toBe('Home | NextAce');
  });

  it('Delicious (flat, TAGS with @, <DD> notes with quotes, query string with &)', () => {
    const f = load('shaarli-delicious.htm');
    expect(f.total).toBe(5);
    expect(f.folders).toEqual([]);
    const rows = bookmarks(f);
    expect(rows.map((b) => b.title)).toEqual([
      'Export Firefox bookmarks to backup or transfer',
      'Netscape Bookmark File Format',
      'PHP - Testing your privates',
      'Paper craft Mine Turtle',
      'fontfamily.io',
    ]);
    expect(rows[4]!.tags).toEqual(['@font-face', 'os', 'typography']);
    expect(rows[3]!.description).toBe('"Hello!"');
    expect(rows[3]!.url).toBe(
      'http://storml.deviantart.com/art/Mine-Turtle-Instructions-302477240?q=in%3Ascraps%20sort%3Atime%20gallery%3Astorml&qo=1',
    );
    expect(rows[2]!.description).toBeNull();
    expect(secs(rows[0]!.addDate)).toBe(1098309600);
    expect(rows[0]!.tags).toEqual(['firefox', 'bookmark', 'export']);
  });

  it("Pocket's ril_export.html (h1 sections + ul/li/a, time_added, lowercase tags)", () => {
    const f = load('wallabag-pocket-ril_export.html');
    expect(f.format).toBe('pocket');
    expect(f.total).toBe(2);
    const [a, b] = bookmarks(f);
    expect(a).toMatchObject({
      title: 'Tarn : Des lapins ravagent le terrain, le match de rugby doit être annulé',
      folder: null,
      tags: ['ifttt', 'new_entry_simple'],
      archived: false,
    });
    expect(secs(a!.addDate)).toBe(1688628695);
    expect(b!.title).toBe('JO Paris 2024 : Où courir dans la capitale maintenant que les quais sont fermés ?');
    expect(secs(b!.addDate)).toBe(1688627412);
  });

  it('Pocket "Read Archive" entries are marked archived', () => {
    const html =
      '<!DOCTYPE html><html><body><h1>Unread</h1><ul><li><a href="https://a.example/" time_added="1688628695">A</a></li></ul>' +
      '<h1>Read Archive</h1><ul><li><a href="https://b.example/" time_added="1688628000" tags="x">B</a></li></ul></body></html>';
    const f = parseBookmarksHtml(html);
    expect(bookmarks(f).map((b) => [b.url, b.archived, b.tags])).toEqual([
      ['https://a.example/', false, []],
      ['https://b.example/', true, ['x']],
    ]);
  });

  it("Firefox's own broken-file fixture: what survives and what is reported", () => {
    const f = load('firefox-places-test_bookmarks.corrupt.html');
    expect(f.total).toBe(10);
    expect(f.bookmarks).toBe(9);
    const errors = f.rows.filter((r) => r.kind === 'error');
    expect(errors).toEqual([
      { kind: 'error', index: 4, title: 'About Us', url: 'b0rked', code: 'invalid_url', reason: 'Not a valid web address' },
    ]);
    expect(foldersCount(f)).toEqual({ 'Mozilla Firefox': 4, test: 1, '(top)': 4 });
    // The keyword bookmark keeps its item comment; the folder comment is not used.
    expect(byUrl(f, 'http://test/post')).toMatchObject({ title: 'test post keyword', folder: 'test', description: 'item description' });
    expect(secs(byUrl(f, 'http://test/post').addDate)).toBe(1177375336);
    // UNFILED_BOOKMARKS_FOLDER and PERSONAL_TOOLBAR_FOLDER are roots.
    expect(byUrl(f, 'http://example.tld/').folder).toBeNull();
    expect(byUrl(f, 'http://en-us.fxfeeds.mozilla.com/en-US/firefox/livebookmarks/').title).toBe('Latest Headlines');
    // ICON="b0rked" does not matter; the livemark comment belongs to the last bookmark.
    expect(byUrl(f, 'http://bogus-icon.mozilla.com/')).toMatchObject({ title: 'Getting Started', description: 'Livemark test comment' });
  });
});

describe('parseBookmarksHtml edge cases', () => {
  it('skips and reports garbage entries without stopping', () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><A>no href</A>
<DT><A HREF="javascript:alert(1)">js</A>
<DT><A HREF="data:text/html,hi">data</A>
<DT><A HREF="file:///etc/passwd">file</A>
<DT><A HREF="http://">empty host</A>
<DT><A HREF="https://ok.example/a">ok</A>
<DT><A HREF="HTTPS://OK.EXAMPLE/a">same again</A>
<DT><A HREF="https://ok.example/b"></A>
<DT><A HREF="  https://ok.example/c  ">  spaced
   title </A>
</DL>`;
    const f = parseBookmarksHtml(html);
    expect(f.rows.map((r) => (r.kind === 'error' ? `${r.index}:${r.code}` : `${r.index}:${r.url}|${r.title}`))).toEqual([
      '0:no_href',
      '1:unsupported_scheme',
      '2:unsupported_scheme',
      '3:unsupported_scheme',
      '4:invalid_url',
      '5:https://ok.example/a|ok',
      '6:duplicate',
      '7:https://ok.example/b|https://ok.example/b', // empty title: the URL
      '8:https://ok.example/c|spaced title',
    ]);
    const dup = f.rows[6] as Extract<BookmarkRow, { kind: 'error' }>;
    expect(dup).toMatchObject({ title: 'same again', url: 'HTTPS://OK.EXAMPLE/a', reason: 'Appears earlier in the file' });
  });

  it('copes with unclosed <A>, missing </DL> and stray closing tags', () => {
    const html = `<DL><p>
<DT><H3>Outer</H3>
<DL><p>
  <DT><A HREF="https://a.example/">A
  <DT><A HREF="https://b.example/" TAGS="x, y ,,X">B</A>
  <DD>note for B
  </DT></A></p>
  <DT><H3>Inner</H3>
  <DL><p>
    <DT><A HREF="https://c.example/">C</A>`;
    const f = parseBookmarksHtml(html);
    expect(bookmarks(f).map((b) => [b.title, b.folder, b.tags, b.description])).toEqual([
      ['A', 'Outer', [], null],
      ['B', 'Outer', ['x', 'y'], 'note for B'],
      ['C', 'Inner', [], null],
    ]);
  });

  it('decodes entities once, in titles, URLs, tags and folder names', () => {
    const html = `<DL><DT><H3>R&amp;D &lt;lab&gt;</H3><DL>
<DT><A HREF="https://x.example/?a=1&amp;b=2" TAGS="c&amp;d,&#233;t&eacute;">Tom &amp; Jerry&#39;s &quot;best&quot; &amp;amp; &#x2014;</A>
</DL></DL>`;
    const [b] = bookmarks(parseBookmarksHtml(html));
    expect(b).toMatchObject({
      title: 'Tom & Jerry\'s "best" &amp; —',
      url: 'https://x.example/?a=1&b=2',
      tags: ['c&d', 'été'],
      folder: 'R&D <lab>',
    });
  });

  it('strips a BOM and reads lowercase / mixed-case tags and attributes', () => {
    const f = parseBookmarksHtml('\uFEFF<dl><dt><a href="https://a.example/" add_date="1466271425" Tags="One">a</a></dl>');
    expect(bookmarks(f)[0]).toMatchObject({ url: 'https://a.example/', tags: ['One'] });
    expect(secs(bookmarks(f)[0]!.addDate)).toBe(1466271425);
  });

  it('a folder named like a browser root is a collection when nested in another folder', () => {
    const html = `<DL><DT><H3>Work</H3><DL><DT><H3>Favorites</H3><DL><DT><A HREF="https://a.example/">a</A></DL></DL>
<DT><H3 PERSONAL_TOOLBAR_FOLDER="true">Toolbar</H3><DL><DT><H3>News</H3><DL><DT><A HREF="https://b.example/">b</A></DL></DL></DL>`;
    expect(bookmarks(parseBookmarksHtml(html)).map((b) => b.folder)).toEqual(['Favorites', 'News']);
  });

  it('a file without any bookmark is format unknown with no rows', () => {
    expect(parseBookmarksHtml('<html><body><p>hello</p></body></html>')).toMatchObject({ format: 'unknown', total: 0, rows: [] });
    expect(parseBookmarksHtml('')).toMatchObject({ format: 'unknown', total: 0 });
  });

  it('parses the same when fed in small chunks (streaming)', () => {
    const raw = readFileSync(join(dir, 'shaarli-firefox_nested.htm'), 'utf8');
    const rows: BookmarkRow[] = [];
    const parser = new BookmarksHtmlParser((r) => rows.push(r));
    for (let i = 0; i < raw.length; i += 37) parser.write(raw.slice(i, i + 37));
    parser.end();
    expect(rows).toEqual(parseBookmarksHtml(raw).rows);
  });

  it('parses the same in slices with turns of the event loop between them (large imports)', async () => {
    for (const name of ['shaarli-firefox_nested.htm', 'shaarli-chromium_nested.htm', 'wallabag-pocket-ril_export.html']) {
      const raw = readFileSync(join(dir, name), 'utf8');
      // a tiny slice budget makes every slice as small as the parser allows
      expect(await parseBookmarksHtmlInSlices(raw.repeat(20), 0.0001), name).toEqual(parseBookmarksHtml(raw.repeat(20)));
    }
  });
});

describe('parseAddDate', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  it('normalizes seconds, milliseconds, microseconds and nanoseconds by magnitude', () => {
    const t = Date.UTC(2018, 0, 9, 16, 34, 57, 780);
    expect(parseAddDate('1515515697', now)!.getTime()).toBe(1515515697000);
    expect(parseAddDate('1515515697780', now)!.getTime()).toBe(t);
    expect(parseAddDate('1515515697780642', now)!.getTime()).toBe(t + 1);
    expect(parseAddDate('1515515697780642000', now)!.getTime()).toBe(t + 1);
    expect(parseAddDate(' 1515515697 ', now)!.getTime()).toBe(1515515697000);
  });
  it('gives null for missing, zero, negative, junk and implausible dates', () => {
    for (const raw of [undefined, '', '0', '-5', 'abc', '12e5', '1e10', '100', '4102444800' /* 2100 */]) {
      expect(parseAddDate(raw, now)).toBeNull();
    }
  });
});

describe('parseTags', () => {
  it('splits on commas, trims, drops empties and case-insensitive duplicates, caps length', () => {
    expect(parseTags(' a , b,,A , c d ')).toEqual(['a', 'b', 'c d']);
    expect(parseTags(undefined)).toEqual([]);
    expect(parseTags('x'.repeat(100))[0]).toHaveLength(64);
  });
});

describe('writeBookmarksHtml', () => {
  const items = [
    { title: 'Plain', url: 'https://a.example/', addDate: new Date('2024-03-01T10:00:00Z'), tags: ['news', 'daily'], collectionName: 'News' },
    { title: 'Tom & "Jerry" <3', url: 'https://b.example/?x=1&y=<2>', addDate: null, tags: ['a,b', 'été'], collectionName: 'R&D <lab>' },
    { title: null, url: 'https://c.example/', addDate: new Date('2020-01-01T00:00:00Z'), tags: [], collectionName: null },
    { title: 'Second news', url: 'https://d.example/', addDate: new Date('2023-01-01T00:00:00Z'), tags: [], collectionName: 'News', description: 'with a note & more' },
  ];

  it('writes a standard Netscape file', () => {
    const html = writeBookmarksHtml(items);
    expect(html.startsWith('<!DOCTYPE NETSCAPE-Bookmark-file-1>\n')).toBe(true);
    expect(html).toContain('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">');
    expect(html).toContain('<TITLE>Bookmarks</TITLE>');
    expect(html).toContain('<H1>Bookmarks</H1>');
    expect(html).toContain('<DT><H3 ADD_DATE="1672531200">News</H3>');
    expect(html).toContain('<DT><A HREF="https://a.example/" ADD_DATE="1709287200" TAGS="news,daily">Plain</A>');
    expect(html).toContain('HREF="https://b.example/?x=1&amp;y=&lt;2&gt;"');
    expect(html).toContain('>Tom &amp; &quot;Jerry&quot; &lt;3</A>');
    expect(html).not.toMatch(/<[^>]*<3/);
  });

  it('round-trips through the parser: titles, URLs, dates, tags, collections, notes', () => {
    const f = parseBookmarksHtml(writeBookmarksHtml(items));
    expect(f.errors).toBe(0);
    expect(f.folders).toEqual(['News', 'R&D <lab>']);
    const got = Object.fromEntries(bookmarks(f).map((b) => [b.url, b]));
    expect(got['https://a.example/']).toMatchObject({ title: 'Plain', folder: 'News', tags: ['news', 'daily'] });
    expect(got['https://a.example/']!.addDate!.toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(got['https://b.example/?x=1&y=%3C2%3E']).toMatchObject({ title: 'Tom & "Jerry" <3', folder: 'R&D <lab>', tags: ['a b', 'été'], addDate: null });
    expect(got['https://c.example/']).toMatchObject({ title: 'https://c.example/', folder: null });
    expect(got['https://d.example/']).toMatchObject({ folder: 'News', description: 'with a note & more' });
  });

  it('a collection named like a browser root ("Favorites", "Bookmarks Toolbar") survives the round trip', () => {
    const html = writeBookmarksHtml([
      { title: 'a', url: 'https://a.example/', addDate: null, tags: [], collectionName: 'Favorites' },
      { title: 'b', url: 'https://b.example/', addDate: null, tags: [], collectionName: 'Bookmarks Toolbar' },
    ]);
    expect(bookmarks(parseBookmarksHtml(html)).map((b) => b.folder)).toEqual(['Favorites', 'Bookmarks Toolbar']);
    // the same folders in a browser's file are roots
    expect(bookmarks(parseBookmarksHtml(html.replace(/<!-- Hearth[^>]*-->\n/, ''))).map((b) => b.folder)).toEqual([null, null]);
  });

  it('round-trips every fixture file: same URLs, titles, folders, tags and dates (to the second)', () => {
    for (const name of [
      'shaarli-firefox_nested.htm',
      'shaarli-chromium_nested.htm',
      'shaarli-internet_explorer_11_nested.htm',
      'shaarli-safari_folded.htm',
      'shaarli-google_bookmarks_nested.htm',
      'shaarli-delicious.htm',
      'wallabag-pocket-ril_export.html',
      'firefox-places-test_bookmarks.corrupt.html',
    ]) {
      const first = bookmarks(load(name));
      const again = bookmarks(
        parseBookmarksHtml(
          writeBookmarksHtml(first.map((b) => ({ title: b.title, url: b.url, addDate: b.addDate, tags: b.tags, collectionName: b.folder, description: b.description }))),
        ),
      );
      const key = (b: ParsedBookmark) => [b.url, b.title, b.folder, b.tags.join(','), b.addDate ? Math.floor(secs(b.addDate)!) : null, b.description];
      expect(again.map(key).sort(), name).toEqual(first.map(key).sort());
    }
  });
});
