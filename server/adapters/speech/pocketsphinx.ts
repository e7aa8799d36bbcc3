// pocketsphinx (apt `pocketsphinx` + `pocketsphinx-en-us`, BSD): one process per transcription,
// 16 kHz s16le in a scratch file (it cannot read a socket), one line of text per utterance on
// standard output.
import { runProgram, withScratchFile, type SttEngine } from './engine.js';

export function createPocketsphinx(program: string, opts: { timeoutMs: number; scratchDir: string }): SttEngine {
  return {
    id: 'pocketsphinx',
    async transcribe(pcm16k, o) {
      const out = await withScratchFile(
        opts.scratchDir,
        '.raw',
        (file) => runProgram(program, ['-infile', file, '-logfn', '/dev/null'], { signal: o.signal, timeoutMs: opts.timeoutMs, maxOutputBytes: 1024 * 1024 }),
        pcm16k,
      );
      const text = out
        .toString('utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join(' ');
      return { text };
    },
  };
}
