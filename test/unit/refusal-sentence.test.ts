// A refusal the server sent without a message of its own still reads as a sentence with a next step,
// never as a raw status code ("The request failed (404).").
import { describe, expect, it } from 'vitest';
import { refusalSentence } from '../../renderer/src/api/client.js';

describe('refusalSentence', () => {
  it.each([
    [401, 'signed out'],
    [403, 'Only an admin'],
    [404, 'not here any more'],
    [409, 'changed meanwhile'],
    [413, 'too big'],
    [429, 'Wait a minute'],
    [500, 'try again in a moment'],
    [503, 'try again in a moment'],
    [400, 'Check what you entered'],
  ])('%i says what happened and what to do, without the number', (status, words) => {
    const sentence = refusalSentence(status);
    expect(sentence).toContain(words);
    expect(sentence).not.toMatch(/\d/);
    expect(sentence).toMatch(/\.$/);
  });
});
