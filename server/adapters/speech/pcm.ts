// WAV and PCM helpers: reading the samples out of a WAV an engine wrote (espeak-ng streams it with
// an unknown length), linear resampling (flite's 16 kHz up to 24 kHz: browsers reject buffers under
// 22 050 Hz), splitting into pieces of at most one second, and writing a WAV for POST /api/tts.

/** The s16le mono samples of a WAV file and its rate. */
export function readWav(wav: Buffer): { sampleRate: number; pcm: Buffer } {
  if (wav.length < 12 || wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let at = 12;
  let sampleRate = 0;
  while (at + 8 <= wav.length) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      const channels = wav.readUInt16LE(at + 10);
      const bits = wav.readUInt16LE(at + 22);
      if (channels !== 1 || bits !== 16) throw new Error('not 16-bit mono');
      sampleRate = wav.readUInt32LE(at + 12);
    } else if (id === 'data') {
      if (!sampleRate) throw new Error('data before fmt');
      // a streamed WAV says 0x7fffffff-ish, or 0 (festival writing to a pipe, where it cannot go
      // back to fill the sizes in); the data runs to the end of what was written
      const end = size === 0 ? wav.length : Math.min(wav.length, at + 8 + size);
      const body = wav.subarray(at + 8, end - ((end - at - 8) % 2));
      return { sampleRate, pcm: Buffer.from(body) };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** Linear resampling of s16le mono. */
export function resample(pcm: Buffer, from: number, to: number): Buffer {
  if (from === to) return pcm;
  const n = Math.floor(pcm.length / 2);
  // an aligned copy: a Buffer's bytes may start at an odd offset of its memory
  const src = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + n * 2));
  const out = new Int16Array(Math.floor((n * to) / from));
  const step = from / to;
  for (let i = 0; i < out.length; i++) {
    const pos = i * step;
    const j = Math.floor(pos);
    const a = j < n ? src[j]! : 0;
    const b = j + 1 < n ? src[j + 1]! : a;
    out[i] = Math.round(a + (b - a) * (pos - j));
  }
  return Buffer.from(out.buffer);
}

/** Pieces of at most `maxSamples` samples each (the last may be shorter). */
export function splitPcm(pcm: Buffer, maxSamples: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < pcm.length; at += maxSamples * 2) out.push(pcm.subarray(at, Math.min(pcm.length, at + maxSamples * 2)));
  return out;
}

/** A WAV file of s16le mono samples. */
export function writeWav(pcm: Buffer, sampleRate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}
