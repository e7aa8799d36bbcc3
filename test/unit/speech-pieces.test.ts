// How the web app cuts text for speech: a long article into request-sized pieces of whole sentences
// (the first one short, so speech starts at once), and an answer still being written into the
// sentences that are finished (voice mode speaks those while the rest arrives).
import { describe, expect, it } from 'vitest';
import { MAX_SPEECH_CHARS, speechPieces, takeSentences } from '../../renderer/src/features/voice/speech-player.js';
import { MAX_TTS_CHARS } from '../../server/modules/voice/schema.js';

describe('speechPieces', () => {
  const article = Array.from({ length: 120 }, (_, i) => `Sentence ${i + 1} says something about the garden.`).join(' ');

  it('cuts a long text into whole sentences that each fit one request, the first short, losing nothing', () => {
    const pieces = speechPieces(article);
    expect(MAX_SPEECH_CHARS).toBe(MAX_TTS_CHARS);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces[0]!.length).toBeLessThanOrEqual(300);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(MAX_SPEECH_CHARS);
      expect(p).toMatch(/^Sentence \d+ .*garden\.$/);
    }
    expect(pieces.join(' ')).toBe(article);
  });

  it('cuts a sentence longer than one request at a space', () => {
    const long = Array.from({ length: 600 }, () => 'word').join(' ');
    const pieces = speechPieces(`${long}. Short one.`);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(MAX_SPEECH_CHARS);
    expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(`${long}. Short one.`);
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('gives nothing for blank text and one piece for a short one', () => {
    expect(speechPieces('   ')).toEqual([]);
    expect(speechPieces('Dinner is at six.')).toEqual(['Dinner is at six.']);
  });
});

describe('takeSentences', () => {
  it('hands over the finished sentences and keeps the one still being written', () => {
    expect(takeSentences('The oven is hot. Dinner will be')).toEqual(['The oven is hot. ', 'Dinner will be']);
    expect(takeSentences('Is it ready? Yes! Set the table')).toEqual(['Is it ready? Yes! ', 'Set the table']);
    expect(takeSentences('A list:\n\n- one')).toEqual(['A list:\n\n', '- one']);
    expect(takeSentences('Version 1.5 is out')).toEqual(['', 'Version 1.5 is out']);
  });
});
