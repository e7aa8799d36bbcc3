// Which manual paragraphs Ask and the chat tool read: scored by the question's words longer than 3
// characters, the best within the byte budgets, in the manual's order; its start without a match.
import { describe, expect, it } from 'vitest';
import { cutToBytes, forAsk, forTool, paragraphsOf, questionWords } from '../../server/modules/home-inventory/manual-text.js';
import { ASK_MANUAL_BYTES, TOOL_MANUAL_BYTES } from '../../server/modules/home-inventory/schema.js';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `Section ${i}. General safety information about the appliance and its careful everyday use in the home, number ${i}.`.repeat(3));
const DESCALE = 'Descaling: descale the machine every 3 months. Fill the tank with descaling solution and run the descale programme.';
const FILTER = 'Water filter: replace the water filter every 6 months, or when the filter light comes on.';
const ERRORS = 'Error codes: E04 means the drain pump is blocked. Clean the pump filter.';
const MANUAL = [...filler(60), DESCALE, ...filler(40), FILTER, ...filler(10), ERRORS].join('\n\n');

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('manual text for Ask and the chat tool', () => {
  it('splits on blank lines, and a long block without any into runs of lines', () => {
    expect(paragraphsOf('One.\n\n\nTwo\nstill two.\r\n\r\nThree.')).toEqual(['One.', 'Two\nstill two.', 'Three.']);
    // a manual asked again is not split again: the same paragraphs come back
    const manual = Array.from({ length: 50 }, (_, n) => `Step ${n}: descale the machine.`).join('\n\n');
    expect(paragraphsOf(manual)).toBe(paragraphsOf(manual));
    expect(paragraphsOf(`${manual}\n\nOne more.`)).not.toBe(paragraphsOf(manual));
    const long = Array.from({ length: 100 }, (_, i) => `line ${i} of a PDF page without blank lines`).join('\n');
    const runs = paragraphsOf(long);
    expect(runs.length).toBeGreaterThan(3);
    for (const r of runs) expect(r.length).toBeLessThanOrEqual(1_500);
    expect(runs.join('\n')).toBe(long);
  });

  it('counts only words longer than 3 characters, case-insensitive, once each', () => {
    expect(questionWords('How do I DESCALE the descale thing, and why?')).toEqual(['descale', 'thing']);
  });

  it('gives Ask the paragraphs that match, from deep in the manual, in document order, within 8 KB', () => {
    expect(bytes(MANUAL)).toBeGreaterThan(3 * ASK_MANUAL_BYTES);
    const r = forAsk(MANUAL, 'How often should I descale it and replace the filter?');
    expect(r.matched).toBe(true);
    expect(r.text).toContain(DESCALE);
    expect(r.text).toContain(FILTER);
    expect(r.text.indexOf(DESCALE)).toBeLessThan(r.text.indexOf(FILTER));
    expect(bytes(r.text)).toBeLessThanOrEqual(ASK_MANUAL_BYTES);
    // not the first 8 KB
    expect(r.text).not.toContain('Section 0.');
    // the best paragraphs come first when the budget is small
    const small = forAsk(MANUAL, 'error code E04 drain pump', 200);
    expect(small.text).toBe(ERRORS);
  });

  it('gives Ask the manual\'s start when nothing matches, and says so', () => {
    const r = forAsk(MANUAL, 'Can it make tea?');
    expect(r.matched).toBe(false);
    expect(r.text.startsWith('Section 0.')).toBe(true);
    expect(bytes(r.text)).toBeLessThanOrEqual(ASK_MANUAL_BYTES);
    expect(forAsk('', 'descale')).toEqual({ text: '', paragraphs: 0, matched: false });
  });

  it('gives the chat tool the top 3 paragraphs capped at 4 KB, and the first 4 KB with no question', () => {
    const r = forTool(MANUAL, 'descale filter error pump');
    expect(r.paragraphs).toBeLessThanOrEqual(3);
    expect(r.text).toContain(DESCALE);
    expect(r.text).toContain(ERRORS);
    expect(bytes(r.text)).toBeLessThanOrEqual(TOOL_MANUAL_BYTES);
    const head = forTool(MANUAL);
    expect(head.matched).toBe(false);
    expect(MANUAL.startsWith(head.text)).toBe(true);
    expect(bytes(head.text)).toBeLessThanOrEqual(TOOL_MANUAL_BYTES);
    expect(bytes(head.text)).toBeGreaterThan(TOOL_MANUAL_BYTES - 200);
  });

  it('cuts on a character, never inside one', () => {
    expect(cutToBytes('ééé', 3)).toBe('é');
    expect(cutToBytes('short', 100)).toBe('short');
  });
});
