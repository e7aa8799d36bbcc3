// Small text helpers shared by the search providers and the chat tools: plain, short snippets, the
// key words of a question (chat's grounding looks a whole question up by them), and what a person
// typed turned into an FTS5 MATCH expression (Reader's and chat's full-text search).

/** Plain text cut to about `max` characters at a word boundary, with an ellipsis when cut. */
export function clip(text: string | null | undefined, max: number): string | null {
  const t = (text ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t) return null;
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const at = cut.lastIndexOf(' ');
  return `${(at > max * 0.6 ? cut.slice(0, at) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** A link's address made readable: host and path, without the scheme and "www.". */
export function readableUrl(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/^\/+|\/+$/g, '');
    return path ? `${u.host.replace(/^www\./, '')} › ${path}` : u.host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const STOP = new Set(
  `a an the and or but if of to in on at by for with from about into over under as is are was were be been being do does did have has had
  i me my we our you your he she it its they them their this that these those what which who whom whose when where why how
  can could should would will shall may might must not no yes so than then there here just also very too much many more most
  some any all each every tell show find give explain please know want need get make let say said does doing done like
  wie was wer wo warum der die das ein eine und oder ist sind le la les un une et est des du de`.split(/\s+/),
);

/** The words of a question worth looking up: no common words, longest first, at most `max`. */
export function keyWords(question: string, max = 6): string[] {
  const words = (question.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
  const unique = [...new Set(words)];
  return unique.sort((a, b) => b.length - a.length).slice(0, max);
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
const wordsOf = (s: string) => fold(s).match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * How well short texts (a name, its description, the words people use for it) fit what was typed:
 * every typed word must start a word of some field (the last one may be half typed); a word in a
 * heavier field counts more. 0 when a typed word fits nothing.
 */
export function fitScore(q: string, fields: Array<{ text: string; weight: number }>): number {
  const typed = wordsOf(q);
  if (typed.length === 0) return 0;
  const split = fields.map((f) => ({ words: wordsOf(f.text), weight: f.weight }));
  let score = 0;
  for (const t of typed) {
    let best = 0;
    for (const f of split) if (f.weight > best && f.words.some((w) => w.startsWith(t))) best = f.weight;
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

const MAX_QUERY_TOKENS = 16;
const MAX_TOKEN_CHARS = 64;

/**
 * Turns what a person typed into an FTS5 MATCH expression: only letter/digit runs survive (the
 * tokenizer's own notion of a word), each quoted, all required, the last one a prefix. Quotes,
 * operators (AND, NEAR, -, *, ^, :) and stray punctuation therefore never reach FTS5's parser.
 * A pasted address loses its scheme and "www." so it matches however the item was saved.
 * Returns null when nothing searchable is left.
 */
export function buildMatch(q: string): string | null {
  let text = q.normalize('NFKC').trim();
  if (/^https?:\/\//i.test(text)) {
    try {
      const u = new URL(text);
      text = `${u.hostname.replace(/^www\./i, '')} ${u.pathname} ${u.search}`;
    } catch {
      // not a URL after all: use the words as typed
    }
  }
  const tokens = (text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, MAX_QUERY_TOKENS).map((t) => t.slice(0, MAX_TOKEN_CHARS));
  if (tokens.length === 0) return null;
  return tokens.map((t, i) => `"${t}"${i === tokens.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * An FTS5 MATCH expression for items with ANY of these words (chat's grounding looks a whole
 * question up by its key words), each word whole; null when none is left.
 */
export function buildAnyMatch(words: string[]): string | null {
  const tokens = words.flatMap((w) => w.normalize('NFKC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, MAX_QUERY_TOKENS).map((t) => t.slice(0, MAX_TOKEN_CHARS));
  if (tokens.length === 0) return null;
  return tokens.map((t) => `"${t}"`).join(' OR ');
}
