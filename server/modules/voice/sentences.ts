// Splitting a text into sentences for speech: Intl.Segmenter's sentence boundaries, with fragments
// shorter than MIN_CHARS ("Hi." "OK.") joined to the next so each engine call says something whole.
export const MIN_SENTENCE_CHARS = 20;

export function splitSentences(text: string, locale = 'en'): string[] {
  const seg = new Intl.Segmenter(locale, { granularity: 'sentence' });
  const out: string[] = [];
  let pending = '';
  for (const { segment } of seg.segment(text)) {
    const s = segment.replace(/\s+/g, ' ').trim();
    if (!s) continue;
    pending = pending ? `${pending} ${s}` : s;
    if (pending.length >= MIN_SENTENCE_CHARS) {
      out.push(pending);
      pending = '';
    }
  }
  if (pending) {
    if (out.length > 0 && pending.length < MIN_SENTENCE_CHARS / 2) out[out.length - 1] += ` ${pending}`;
    else out.push(pending);
  }
  return out;
}
