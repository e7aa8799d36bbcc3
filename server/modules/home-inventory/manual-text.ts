// Choosing what of a device's manual a model reads (pure). The manual is split into paragraphs; a
// paragraph's score is how many of the question's words longer than 3 characters it contains
// (case-insensitive), more occurrences breaking ties. Ask gets up to ASK_MANUAL_BYTES of the best
// paragraphs, the chat tool the top TOOL_MANUAL_PARAGRAPHS capped at TOOL_MANUAL_BYTES; both in
// the manual's own order. With no question, or nothing matching, the manual's start.
import { ASK_MANUAL_BYTES, TOOL_MANUAL_BYTES, TOOL_MANUAL_PARAGRAPHS } from './schema.js';

/** A paragraph longer than this (a PDF's text often has no blank lines) is cut into runs of lines. */
const MAX_PARAGRAPH_CHARS = 1_500;
const RUN_CHARS = 800;

export interface ManualExtract {
  text: string;
  /** Paragraphs in the extract. */
  paragraphs: number;
  /** Whether any of them contained a word of the question. */
  matched: boolean;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The first `max` bytes of a text, cut on a character (and, when near, a word) boundary. */
export function cutToBytes(s: string, max: number): string {
  if (bytes(s) <= max) return s;
  let cut = Buffer.from(s, 'utf8').subarray(0, max).toString('utf8');
  // a character split in two decodes as U+FFFD: drop it
  cut = cut.replace(/\uFFFD$/, '');
  const space = cut.lastIndexOf(' ');
  return space > max * 0.8 ? cut.slice(0, space) : cut;
}

/**
 * The last few manuals' paragraphs. Splitting a 100-page manual takes milliseconds of the server's
 * one thread (about 8 ms of each Ask in bench/inventory-load.ts), and a device's questions ask the
 * same text again and again. Kept by the text itself, so an edited or new manual is split afresh.
 */
const split = new Map<string, readonly string[]>();
const KEPT_MANUALS = 8;

/** A manual's paragraphs (the same array for the same text: read it, do not change it). */
export function paragraphsOf(text: string): readonly string[] {
  const kept = split.get(text);
  if (kept) {
    // most recently used last
    split.delete(text);
    split.set(text, kept);
    return kept;
  }
  const out = splitParagraphs(text);
  split.set(text, out);
  if (split.size > KEPT_MANUALS) split.delete(split.keys().next().value!);
  return out;
}

function splitParagraphs(text: string): string[] {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n+/)) {
    const p = block.replace(/[ \t]+/g, ' ').trim();
    if (!p) continue;
    if (p.length <= MAX_PARAGRAPH_CHARS) {
      out.push(p);
      continue;
    }
    let run = '';
    for (const line of p.split('\n')) {
      if (run && run.length + line.length + 1 > RUN_CHARS) {
        out.push(run);
        run = '';
      }
      run = run ? `${run}\n${line}` : line;
      while (run.length > MAX_PARAGRAPH_CHARS) {
        out.push(run.slice(0, RUN_CHARS));
        run = run.slice(RUN_CHARS);
      }
    }
    if (run) out.push(run);
  }
  return out;
}

/** The question's words longer than 3 characters, lowercased, once each. */
export function questionWords(question: string): string[] {
  return [...new Set((question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 3))];
}

interface Scored {
  index: number;
  text: string;
  words: number;
  hits: number;
}

function scored(paragraphs: readonly string[], words: string[]): Scored[] {
  return paragraphs.map((text, index) => {
    const lower = text.toLowerCase();
    let found = 0;
    let hits = 0;
    for (const w of words) {
      const n = lower.split(w).length - 1;
      if (n > 0) found++;
      hits += n;
    }
    return { index, text, words: found, hits };
  });
}

/** The best-matching paragraphs (score > 0), best first, position breaking ties. */
function best(paragraphs: readonly string[], question: string): Scored[] {
  const words = questionWords(question);
  if (words.length === 0) return [];
  return scored(paragraphs, words)
    .filter((p) => p.words > 0)
    .sort((a, b) => b.words - a.words || b.hits - a.hits || a.index - b.index);
}

function join(chosen: Scored[], matched: boolean): ManualExtract {
  const inOrder = [...chosen].sort((a, b) => a.index - b.index);
  return { text: inOrder.map((p) => p.text).join('\n\n'), paragraphs: inOrder.length, matched };
}

/** The manual's start, whole paragraphs up to the budget (the first one cut when it alone is bigger). */
function start(paragraphs: readonly string[], budget: number): ManualExtract {
  const chosen: Scored[] = [];
  let used = 0;
  for (const [index, text] of paragraphs.entries()) {
    const cost = bytes(text) + (chosen.length ? 2 : 0);
    if (used + cost > budget) {
      if (chosen.length === 0) chosen.push({ index, text: cutToBytes(text, budget), words: 0, hits: 0 });
      break;
    }
    chosen.push({ index, text, words: 0, hits: 0 });
    used += cost;
  }
  return join(chosen, false);
}

/** For Ask: up to ASK_MANUAL_BYTES of the paragraphs that best match the question, in document order. */
export function forAsk(text: string, question: string, budget = ASK_MANUAL_BYTES): ManualExtract {
  const paragraphs = paragraphsOf(text);
  const ranked = best(paragraphs, question);
  if (ranked.length === 0) return start(paragraphs, budget);
  const chosen: Scored[] = [];
  let used = 0;
  for (const p of ranked) {
    const cost = bytes(p.text) + (chosen.length ? 2 : 0);
    if (used + cost > budget) continue;
    chosen.push(p);
    used += cost;
  }
  // the best paragraph alone is over the budget: its start
  if (chosen.length === 0) chosen.push({ ...ranked[0]!, text: cutToBytes(ranked[0]!.text, budget) });
  return join(chosen, true);
}

/** For the chat tool: the top TOOL_MANUAL_PARAGRAPHS for the question capped at TOOL_MANUAL_BYTES; the manual's first 4 KB without one. */
export function forTool(text: string, question?: string): ManualExtract {
  const paragraphs = paragraphsOf(text);
  const ranked = question ? best(paragraphs, question).slice(0, TOOL_MANUAL_PARAGRAPHS) : [];
  if (ranked.length === 0) {
    const head = cutToBytes(paragraphs.join('\n\n'), TOOL_MANUAL_BYTES);
    return { text: head, paragraphs: head ? head.split('\n\n').length : 0, matched: false };
  }
  const joined = join(ranked, true);
  return { ...joined, text: cutToBytes(joined.text, TOOL_MANUAL_BYTES) };
}
