// The answer stream's pure helpers: the history that fits the context window, titles, sources.
import { describe, expect, it } from 'vitest';
import { answerRoom, dedupeSources, estimateTokens, fallbackTitle, fitHistory, parseTitle } from '../../server/modules/chat/history.js';

const msg = (role: 'user' | 'assistant', chars: number, tag: string) => ({ role, content: `${tag}${'x'.repeat(chars - tag.length)}` });

describe('fitHistory', () => {
  const system = { role: 'system' as const, content: 's'.repeat(396) }; // 100 tokens with its overhead

  it('keeps the system prompt and the newest whole messages that fit, in order', () => {
    // window 1000: 250 for the answer, 100 for the system prompt, 650 left; each message is 104 tokens
    const history = Array.from({ length: 10 }, (_, i) => msg(i % 2 ? 'assistant' : 'user', 400, `m${i}`));
    const { messages, left } = fitHistory(system, history, 1000);
    expect(messages[0]).toBe(system);
    expect(messages.slice(1).map((m) => m.content.slice(0, 2))).toEqual(['m4', 'm5', 'm6', 'm7', 'm8', 'm9']);
    expect(left).toBe(4);
    const used = messages.reduce((n, m) => n + estimateTokens(m), 0);
    expect(used).toBeLessThanOrEqual(1000 - answerRoom(1000));
  });

  it('never cuts inside a message: one that does not fit ends the history even if older small ones would', () => {
    const history = [msg('user', 40, 'old'), msg('assistant', 2000, 'big'), msg('user', 40, 'new')];
    const { messages } = fitHistory(system, history, 700);
    expect(messages.slice(1).map((m) => m.content)).toEqual([history[2]!.content]);
  });

  it('always sends the question, even alone over the window; a missing window is 8192 tokens', () => {
    const q = msg('user', 8000, 'q');
    expect(fitHistory(system, [q], 100).messages).toEqual([system, q]);
    const many = Array.from({ length: 40 }, (_, i) => msg('user', 400, `m${i}`));
    expect(fitHistory(system, many, null).left).toBe(0);
  });

  it('counts a picture', () => {
    expect(estimateTokens({ content: 'abcd', images: ['x'] })).toBeGreaterThan(estimateTokens({ content: 'abcd' }) + 500);
  });
});

describe('titles and sources', () => {
  it('parses the model’s title strictly', () => {
    expect(parseTitle('{"title": "Bees and honey"}')).toBe('Bees and honey');
    expect(parseTitle('{"title": "\\"Bees and honey.\\""}')).toBe('Bees and honey');
    expect(parseTitle('Title: Bees')).toBeNull();
    expect(parseTitle('{"title": ""}')).toBeNull();
    expect(parseTitle('{"name": "Bees"}')).toBeNull();
    expect(parseTitle(JSON.stringify({ title: 'word '.repeat(30) }))).toBeNull();
    expect(parseTitle(JSON.stringify({ title: 'x'.repeat(101) }))).toBeNull();
  });

  it('falls back to the question’s first six words, at most 100 characters', () => {
    expect(fallbackTitle('  How   do bees make honey in the winter months? ')).toBe('How do bees make honey in');
    expect(fallbackTitle('x'.repeat(300)).length).toBeLessThanOrEqual(100);
    expect(fallbackTitle('   ')).toBe('New chat');
  });

  it('dedupes sources by URL, first seen first', () => {
    const a = { type: 'archive' as const, title: 'A', url: '/read/a', snippet: null };
    const b = { type: 'reader' as const, title: 'B', url: '/reader/items/b', snippet: null };
    expect(dedupeSources([a, b, { ...a, title: 'A again' }])).toEqual([a, b]);
  });
});
