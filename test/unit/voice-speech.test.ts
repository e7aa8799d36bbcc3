// The voice module's pure parts: sentence splitting for speech, WAV reading and writing,
// resampling and the one-second pieces of the NDJSON stream, and the speech failure mapper.
import { describe, expect, it } from 'vitest';
import { SpeechEngineError } from '../../server/adapters/speech/engine.js';
import { readWav, resample, splitPcm, writeWav } from '../../server/adapters/speech/pcm.js';
import { speechAppError } from '../../server/adapter-errors/speech.js';
import { AppError } from '../../server/errors.js';
import { splitSentences } from '../../server/modules/voice/sentences.js';

describe('splitSentences', () => {
  it('splits on sentence ends and joins fragments too short to say alone', () => {
    expect(splitSentences('Good morning to you all. Today will be sunny and warm! Is it?')).toEqual(['Good morning to you all.', 'Today will be sunny and warm! Is it?']);
    expect(splitSentences('Hi. OK. Dinner is ready in the kitchen now.')).toEqual(['Hi. OK. Dinner is ready in the kitchen now.']);
    expect(splitSentences('   ')).toEqual([]);
    expect(splitSentences('Dr. Smith arrived at noon today, as planned.')).toHaveLength(1);
  });
});

describe('pcm helpers', () => {
  const ramp = Buffer.alloc(32_000);
  for (let i = 0; i < 16_000; i++) ramp.writeInt16LE((i % 200) * 100 - 10_000, i * 2);

  it('reads back what it writes, and reads a streamed WAV whose length is unknown', () => {
    const wav = writeWav(ramp, 16_000);
    expect(readWav(wav)).toEqual({ sampleRate: 16_000, pcm: ramp });
    const streamed = Buffer.from(wav);
    streamed.writeUInt32LE(0x7ffff000, 40);
    expect(readWav(streamed).pcm.equals(ramp)).toBe(true);
    // festival writing to a pipe leaves the sizes at 0
    streamed.writeUInt32LE(0, 40);
    expect(readWav(streamed).pcm.equals(ramp)).toBe(true);
    expect(() => readWav(Buffer.from('not a wav file at all'))).toThrow();
  });

  it('resamples 16 kHz to 24 kHz keeping the length in time, and cuts pieces of at most one second', () => {
    const up = resample(ramp, 16_000, 24_000);
    expect(up.length / 2).toBe(24_000);
    expect(up.readInt16LE(0)).toBe(ramp.readInt16LE(0));
    const pieces = splitPcm(up, 10_000);
    expect(pieces.map((p) => p.length / 2)).toEqual([10_000, 10_000, 4_000]);
    expect(Buffer.concat(pieces).equals(up)).toBe(true);
  });
});

describe('speech failures', () => {
  it('each kind is one status and code, said in a sentence without the program’s words', () => {
    const cases: Array<[ConstructorParameters<typeof SpeechEngineError>[0], number, string]> = [
      ['missing', 503, 'engine_unavailable'],
      ['timeout', 504, 'engine_timeout'],
      ['failed', 502, 'engine_failed'],
      ['unreadable_audio', 415, 'unsupported_media_type'],
    ];
    for (const [failure, status, code] of cases) {
      const err = speechAppError(new SpeechEngineError(failure, '/usr/bin/flite exited with 1 at /tmp/x.wav'));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status, code });
      expect((err as AppError).message).toMatch(/^[A-Z].*\.$/);
      expect((err as AppError).message).not.toMatch(/usr|tmp|exited/);
    }
    const other = new Error('x');
    expect(speechAppError(other)).toBe(other);
  });
});
