// bookmarks.html import and export: the Netscape bookmark file every browser writes (Firefox,
// Chrome/Edge, IE11, Safari, Google Bookmarks, Delicious/Pinboard) and Pocket's ril_export.html.
//
// Parsing is tolerant and streaming: htmlparser2's SAX events drive a small state machine, so
// unclosed <DT>/<A>/<DD>, a missing outer or closing </DL>, a BOM, no DOCTYPE or mixed case all
// parse, and the import can feed the body in chunks. Entities are decoded exactly once (by
// htmlparser2), so `&amp;#8230;` stays the text `&#8230;`.
//
// Folder rule (spec: "nested folders flattened one level; nearest folder heading becomes a
// collection"): a bookmark's `folder` is the name of the nearest enclosing <H3>. For A/B/C the
// collection is "C". Bookmarks outside any folder have folder null. A browser's own root
// containers (the toolbar, the menu, "Other/Unsorted bookmarks", Safari's "Favoris"/"Menu Signets",
// Google's "Unlabeled", marked by PERSONAL_TOOLBAR_FOLDER/UNFILED_BOOKMARKS_FOLDER or by their
// well-known names when they sit at the top level) are not collections: their direct bookmarks are
// top-level (folder null), their sub-folders become collections as usual. Otherwise every
// household member would get a "Bookmarks Toolbar" collection holding half their links. Hearth's
// own export carries a HEARTH_MARKER comment: there every folder is a collection, whatever its name.
//
// Only http(s) URLs become items; every other entry (no HREF, place:/javascript:/data:/file:,
// unparseable, a URL seen earlier in the file) is a row error with its index, so the import can
// report it and go on. Any later fetch of an imported URL still goes through the SSRF guard.
//
// The writer is bookmarks-html-write.ts (no htmlparser2): its HEARTH_MARKER is what this parser
// looks for, and the tests round-trip through both.
import { Parser } from 'htmlparser2';
import { cleanNote, cleanText, HEARTH_MARKER } from './bookmarks-html-write.js';
import { MAX_TITLE_CHARS } from './schema.js';

export interface ParsedBookmark {
  kind: 'bookmark';
  /** 0-based position among the file's link entries (<A> elements), errors included. */
  index: number;
  title: string;
  /** Normalized absolute http(s) URL (WHATWG `href`). */
  url: string;
  addDate: Date | null;
  tags: string[];
  /** Nearest folder heading, null at the top level or directly inside a browser root folder. */
  folder: string | null;
  description: string | null;
  /** Pocket's "Read Archive" section. */
  archived: boolean;
}

export type BookmarkErrorCode = 'no_href' | 'unsupported_scheme' | 'invalid_url' | 'duplicate';

export interface BookmarkRowError {
  kind: 'error';
  index: number;
  title: string | null;
  /** The raw HREF, cut to 200 characters (data: URIs can be huge). */
  url: string | null;
  code: BookmarkErrorCode;
  reason: string;
}

export type BookmarkRow = ParsedBookmark | BookmarkRowError;

export type BookmarksFormat = 'netscape' | 'pocket' | 'unknown';

export interface ParsedBookmarksFile {
  format: BookmarksFormat;
  /** Number of rows (bookmarks + errors). */
  total: number;
  rows: BookmarkRow[];
  bookmarks: number;
  errors: number;
  /** Folder names that hold at least one bookmark, in first-seen order. */
  folders: string[];
}

export const MAX_DESCRIPTION_LENGTH = 4000;
/** The parser's own cap on a TAGS entry (the file's, not Hearth's: an import cuts tags to MAX_TAG_CHARS). */
export const MAX_TAG_LENGTH = 64;
const MAX_REPORTED_URL = 200;

const ROOT_FOLDER_NAMES = new Set(
  [
    'bookmarks toolbar',
    'bookmarks toolbar folder',
    'bookmarks bar',
    'bookmarks menu',
    'bookmark menu',
    'other bookmarks',
    'mobile bookmarks',
    'unsorted bookmarks',
    'unfiled bookmarks',
    'favorites bar',
    'favorites',
    'personal toolbar',
    'favoris',
    'menu signets',
    'barre de favoris',
    'barre personnelle',
    'unlabeled',
  ].map((n) => n.toLowerCase()),
);

/** A DL level: the folder its bookmarks belong to (null = top level). */
interface Level {
  folder: string | null;
}

interface OpenAnchor {
  href: string | undefined;
  addDate: string | undefined;
  tags: string | undefined;
  text: string;
}

/**
 * Streaming parser: `write()` chunks, `end()`; rows arrive through `onRow` in file order. A
 * bookmark is emitted once its optional <DD> description has been read (at the next entry).
 */
export class BookmarksHtmlParser {
  private readonly parser: Parser;
  private readonly levels: Level[] = [];
  private readonly seenUrls = new Set<string>();
  private index = 0;
  private started = false;
  private anchor: OpenAnchor | null = null;
  private pending: ParsedBookmark | null = null;
  private description: string | null = null; // text of an open <DD> after a bookmark
  private heading: { text: string; root: boolean } | null = null; // an open <H3>
  private nextFolder: { name: string; root: boolean } | null = null; // last closed <H3>, waiting for its <DL>
  private h1: string | null = null;
  private section: string | null = null; // Pocket: text of the last <h1>
  private sawNetscape = false;
  private sawPocket = false;
  private hearthExport = false;

  constructor(private readonly onRow: (row: BookmarkRow) => void) {
    this.parser = new Parser(
      {
        onopentag: (name, attribs) => this.open(name, attribs),
        onclosetag: (name) => this.close(name),
        ontext: (text) => this.text(text),
        oncomment: (data) => {
          if (data.trim() === HEARTH_MARKER) this.hearthExport = true;
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  write(chunk: string): void {
    if (!this.started) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    this.parser.write(chunk);
  }

  end(): void {
    this.parser.end();
    this.finishAnchor();
    this.flushPending();
  }

  get format(): BookmarksFormat {
    if (this.sawNetscape) return 'netscape';
    if (this.sawPocket) return 'pocket';
    return 'unknown';
  }

  private open(name: string, attribs: Record<string, string>): void {
    switch (name) {
      case 'a':
        this.finishAnchor();
        this.flushPending();
        this.anchor = {
          href: attribs.href,
          addDate: attribs.add_date ?? attribs.time_added,
          tags: attribs.tags,
          text: '',
        };
        if ('time_added' in attribs) this.sawPocket = true;
        return;
      case 'dd':
        this.finishAnchor();
        // A <DD> right after a bookmark is its description; after a folder heading it is ignored.
        if (this.pending) this.description = '';
        return;
      case 'h3':
        this.endEntry();
        this.heading = { text: '', root: 'personal_toolbar_folder' in attribs || 'unfiled_bookmarks_folder' in attribs };
        this.sawNetscape = true;
        return;
      case 'h1':
        this.endEntry();
        this.h1 = '';
        return;
      case 'dl': {
        this.endEntry();
        this.sawNetscape = true;
        const parent = this.levels.at(-1)?.folder ?? null;
        const next = this.nextFolder;
        this.nextFolder = null;
        // A <DL> without its own heading (the outer list) keeps the enclosing folder.
        this.levels.push({ folder: next ? (next.root ? null : next.name) : parent });
        return;
      }
      case 'dt':
      case 'li':
      case 'hr':
      case 'ul':
        this.endEntry();
        return;
      default:
        return;
    }
  }

  private close(name: string): void {
    switch (name) {
      case 'a':
        this.finishAnchor();
        return;
      case 'h3':
        if (this.heading) {
          const text = cleanText(this.heading.text);
          // Browser roots are recognised by name only at the top level, so a user's own
          // "Favorites" folder inside another folder stays a collection.
          const topLevel = this.levels.length <= 1 && this.levels.every((l) => l.folder === null);
          const root = this.heading.root || (topLevel && !this.hearthExport && ROOT_FOLDER_NAMES.has(text.toLowerCase()));
          this.nextFolder = { name: text || 'Untitled folder', root };
          this.heading = null;
        }
        return;
      case 'h1':
        if (this.h1 !== null) {
          this.section = cleanText(this.h1);
          this.h1 = null;
        }
        return;
      case 'dl':
        this.endEntry();
        this.levels.pop();
        this.nextFolder = null;
        return;
      case 'dd':
        return;
      default:
        return;
    }
  }

  private text(text: string): void {
    if (this.anchor) this.anchor.text += text;
    else if (this.heading) this.heading.text += text;
    else if (this.h1 !== null) this.h1 += text;
    else if (this.description !== null) this.description += text;
  }

  /** A structural element starts: whatever entry was open is complete. */
  private endEntry(): void {
    this.finishAnchor();
    this.flushPending();
    if (this.heading) this.close('h3');
  }

  private finishAnchor(): void {
    const a = this.anchor;
    if (!a) return;
    this.anchor = null;
    this.flushPending();
    const index = this.index++;
    const title = cleanText(a.text).slice(0, MAX_TITLE_CHARS);
    const rawHref = a.href?.trim() ?? '';
    const fail = (code: BookmarkErrorCode, reason: string): void =>
      this.onRow({
        kind: 'error',
        index,
        title: title || null,
        url: rawHref ? rawHref.slice(0, MAX_REPORTED_URL) : null,
        code,
        reason,
      });
    if (!rawHref) return fail('no_href', 'No link address');
    let url: URL;
    try {
      url = new URL(rawHref);
    } catch {
      return fail('invalid_url', 'Not a valid web address');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return fail('unsupported_scheme', `Only http and https links can be saved (this one is ${url.protocol.slice(0, -1)}:)`);
    }
    if (!url.hostname) return fail('invalid_url', 'Not a valid web address');
    const href = url.href;
    if (this.seenUrls.has(href)) return fail('duplicate', 'Appears earlier in the file');
    this.seenUrls.add(href);
    this.pending = {
      kind: 'bookmark',
      index,
      title: title || href.slice(0, MAX_TITLE_CHARS),
      url: href,
      addDate: parseAddDate(a.addDate),
      tags: parseTags(a.tags),
      folder: this.levels.at(-1)?.folder ?? null,
      description: null,
      archived: this.sawPocket && !this.sawNetscape && /^read archive$/i.test(this.section ?? ''),
    };
  }

  private flushPending(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    if (this.description !== null) {
      const d = cleanNote(this.description);
      p.description = d ? d.slice(0, MAX_DESCRIPTION_LENGTH) : null;
      this.description = null;
    }
    this.onRow(p);
  }
}

/** Parses a whole file held in memory; the import reads `total` first to report progress. */
export function parseBookmarksHtml(input: string): ParsedBookmarksFile {
  const rows: BookmarkRow[] = [];
  const parser = new BookmarksHtmlParser((row) => rows.push(row));
  parser.write(input);
  parser.end();
  return summarize(parser, rows);
}

/**
 * The same, fed to the streaming parser a slice at a time with a turn of the event loop between
 * slices (each about `sliceMs` of work), so a large file does not hold up other requests.
 */
export async function parseBookmarksHtmlInSlices(input: string, sliceMs: number): Promise<ParsedBookmarksFile> {
  const rows: BookmarkRow[] = [];
  const parser = new BookmarksHtmlParser((row) => rows.push(row));
  let size = 64 * 1024;
  for (let at = 0; at < input.length; ) {
    const started = performance.now();
    parser.write(input.slice(at, at + size));
    at += size;
    const ms = performance.now() - started;
    if (ms < sliceMs / 2) size *= 2;
    else if (ms > sliceMs) size = Math.max(4096, Math.floor(size / 2));
    if (at < input.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  parser.end();
  return summarize(parser, rows);
}

function summarize(parser: BookmarksHtmlParser, rows: BookmarkRow[]): ParsedBookmarksFile {
  const folders: string[] = [];
  const seen = new Set<string>();
  let bookmarks = 0;
  for (const row of rows) {
    if (row.kind !== 'bookmark') continue;
    bookmarks++;
    if (row.folder !== null && !seen.has(row.folder)) {
      seen.add(row.folder);
      folders.push(row.folder);
    }
  }
  return { format: parser.format, total: rows.length, rows, bookmarks, errors: rows.length - bookmarks, folders };
}

/**
 * ADD_DATE / time_added: Unix time in seconds (browsers), milliseconds, or microseconds (Google
 * Bookmarks, Chrome internally), told apart by magnitude. Zero, negative, unparseable or an
 * implausible result (before 1990 or more than a day ahead) gives null.
 */
export function parseAddDate(raw: string | undefined, now: Date = new Date()): Date | null {
  if (raw === undefined) return null;
  const s = raw.trim();
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const n = Number(s);
  if (!Number.isFinite(n) || n <= 0) return null;
  let ms: number;
  if (n < 1e11) ms = n * 1000; // seconds: up to year 5138
  else if (n < 1e14) ms = n; // milliseconds
  else if (n < 1e17) ms = n / 1000; // microseconds
  else ms = n / 1e6; // nanoseconds
  const date = new Date(Math.round(ms));
  if (Number.isNaN(date.getTime())) return null;
  if (date.getTime() < Date.UTC(1990, 0, 1) || date.getTime() > now.getTime() + 86_400_000) return null;
  return date;
}

/** TAGS="a, b,c": comma separated, trimmed, empty dropped, case-insensitive duplicates dropped. */
export function parseTags(raw: string | undefined): string[] {
  if (!raw) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const part of raw.split(',')) {
    const tag = cleanText(part).slice(0, MAX_TAG_LENGTH);
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}
