// Writing Netscape bookmark files (Hearth's Reader export), apart from the parser in
// bookmarks-html.ts so that exporting and the server's start do not load htmlparser2. The
// HEARTH_MARKER comment written here is what the parser looks for; the tests round-trip through both.

/** A comment writeBookmarksHtml puts in its files: folder names are never taken for browser roots. */
export const HEARTH_MARKER = 'Hearth bookmarks export: every folder is a collection';

/** Whitespace runs (newlines, tabs, odd spacing) become one space. */
export function cleanText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Notes keep their line breaks; spaces and tabs collapse. */
export function cleanNote(s: string): string {
  return s.replace(/[ \t]+/g, ' ').trim();
}

export interface BookmarkExportItem {
  title: string | null;
  url: string;
  addDate: Date | null;
  tags: string[];
  collectionName: string | null;
  description?: string | null;
}

/** Escapes text and attribute values (&, <, >, ") so any title or URL survives the round trip. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A standard Netscape bookmark file, as Firefox and Chrome write it: one folder (<H3>) per
 * collection in first-seen order, then the items without a collection at the top level.
 * ADD_DATE in seconds; TAGS comma separated (a comma inside a tag becomes a space).
 */
export function writeBookmarksHtml(items: readonly BookmarkExportItem[], opts: { title?: string } = {}): string {
  const folders = new Map<string, BookmarkExportItem[]>();
  const loose: BookmarkExportItem[] = [];
  for (const item of items) {
    const name = item.collectionName?.trim();
    if (!name) {
      loose.push(item);
      continue;
    }
    const list = folders.get(name);
    if (list) list.push(item);
    else folders.set(name, [item]);
  }
  const lines = [bookmarksHtmlHead(opts.title)];
  for (const [name, list] of folders) {
    const dates = list.map((i) => i.addDate?.getTime()).filter((t): t is number => t !== undefined);
    lines.push(bookmarksHtmlFolderOpen(name, dates.length ? new Date(Math.min(...dates)) : null));
    for (const item of list) lines.push(bookmarksHtmlEntry(item, true));
    lines.push(BOOKMARKS_HTML_FOLDER_CLOSE);
  }
  for (const item of loose) lines.push(bookmarksHtmlEntry(item, false));
  lines.push(BOOKMARKS_HTML_END);
  return lines.join('');
}

// The pieces of writeBookmarksHtml, for writing a large export a part at a time: the head, then
// per folder its opening, entries and close, then the loose entries and the end. Each piece ends
// with a newline.

export function bookmarksHtmlHead(title = 'Bookmarks'): string {
  const t = escapeHtml(title);
  return [
    '<!DOCTYPE NETSCAPE-Bookmark-file-1>',
    '<!-- This is an automatically generated file.',
    '     It will be read and overwritten.',
    '     DO NOT EDIT! -->',
    `<!-- ${HEARTH_MARKER} -->`,
    '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">',
    `<TITLE>${t}</TITLE>`,
    `<H1>${t}</H1>`,
    '<DL><p>',
    '',
  ].join('\n');
}

/** A folder's heading; `firstAdded` is the earliest ADD_DATE of its entries. */
export function bookmarksHtmlFolderOpen(name: string, firstAdded: Date | null): string {
  const folderDate = firstAdded ? ` ADD_DATE="${Math.floor(firstAdded.getTime() / 1000)}"` : '';
  return `    <DT><H3${folderDate}>${escapeHtml(name)}</H3>\n    <DL><p>\n`;
}

export const BOOKMARKS_HTML_FOLDER_CLOSE = '    </DL><p>\n';
export const BOOKMARKS_HTML_END = '</DL><p>\n';

export function bookmarksHtmlEntry(item: BookmarkExportItem, inFolder: boolean): string {
  return entry(item, inFolder ? '        ' : '    ')
    .map((line) => `${line}\n`)
    .join('');
}

function entry(item: BookmarkExportItem, indent: string): string[] {
  let attrs = `HREF="${escapeHtml(item.url)}"`;
  if (item.addDate && !Number.isNaN(item.addDate.getTime())) attrs += ` ADD_DATE="${Math.floor(item.addDate.getTime() / 1000)}"`;
  const tags = item.tags.map((t) => t.replace(/,/g, ' ').trim()).filter(Boolean);
  if (tags.length) attrs += ` TAGS="${escapeHtml(tags.join(','))}"`;
  const title = cleanText(item.title ?? '') || item.url;
  const out = [`${indent}<DT><A ${attrs}>${escapeHtml(title)}</A>`];
  const description = item.description ? cleanNote(item.description) : '';
  if (description) out.push(`${indent}<DD>${escapeHtml(description)}`);
  return out;
}
