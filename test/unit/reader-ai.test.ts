// Pure parts of the Reader AI: the article budget, the strict summary parser and tag cleaning.
import { describe, expect, it } from 'vitest';
import { ARTICLE_BUDGET_CHARS, BadModelOutputError, cleanTags, fitToBudget, parseSummary } from '../../server/modules/reader/ai-service.js';

describe('fitToBudget', () => {
  it('leaves short text alone (whitespace tidied)', () => {
    expect(fitToBudget('  Hello \t world.\r\n\r\n\r\n\r\nBye.  ')).toBe('Hello world.\n\nBye.');
  });
  it('keeps the start and the end of long text within the budget', () => {
    const text = `START ${'lorem ipsum '.repeat(5000)} END`;
    const out = fitToBudget(text);
    expect(out.length).toBeLessThanOrEqual(ARTICLE_BUDGET_CHARS);
    expect(out.length).toBeGreaterThan(ARTICLE_BUDGET_CHARS - 10);
    expect(out.startsWith('START lorem')).toBe(true);
    expect(out.endsWith('ipsum END')).toBe(true);
    expect(out).toContain('\n\n[…]\n\n');
    expect(fitToBudget(text, 300).length).toBeLessThanOrEqual(300);
  });
});

describe('parseSummary', () => {
  it('parses the JSON reply and cleans it', () => {
    expect(parseSummary('{"summary": "  Cats   sleep a lot.\\nThey dream. ", "tags": ["Cats", "#sleep", "cats", " Pets. ", ""]}')).toEqual({
      summary: 'Cats sleep a lot. They dream.',
      tags: ['cats', 'sleep', 'pets'],
    });
  });
  it('accepts a reply wrapped in a ```json fence', () => {
    expect(parseSummary('```json\n{"summary":"S.","tags":[]}\n```')).toEqual({ summary: 'S.', tags: [] });
  });
  it('caps a runaway summary at a word boundary', () => {
    const s = parseSummary(JSON.stringify({ summary: 'word '.repeat(400), tags: [] })).summary;
    expect(s.length).toBeLessThanOrEqual(1000);
    expect(s.endsWith('word…')).toBe(true);
  });
  for (const [name, reply] of [
    ['prose', 'Here is a summary: cats sleep.'],
    ['empty', ''],
    ['wrong shape', '{"tldr": "x"}'],
    ['tags not an array', '{"summary": "x", "tags": "a,b"}'],
    ['tag not a string', '{"summary": "x", "tags": [1]}'],
    ['empty summary', '{"summary": "   ", "tags": []}'],
    ['an array', '["x"]'],
    ['truncated JSON', '{"summary": "Cats sl'],
  ] as const) {
    it(`rejects ${name} as bad_model_output`, () => {
      try {
        parseSummary(reply);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(BadModelOutputError);
        expect(err).toMatchObject({ status: 502, code: 'bad_model_output' });
      }
    });
  }
});

describe('cleanTags', () => {
  it('lowercases, dedupes, drops over-long tags and keeps at most 5', () => {
    expect(cleanTags(['A', 'b', 'a', 'x'.repeat(33), 'c d', 'e', 'f', 'g'])).toEqual(['a', 'b', 'c d', 'e', 'f']);
    expect(cleanTags(['x'.repeat(32)])).toEqual(['x'.repeat(32)]);
  });
});
