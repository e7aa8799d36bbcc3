// Transcription: a recording (any format ffmpeg reads) decoded to 16 kHz mono in a child process,
// then the transcription engine; at most two minutes. Used by POST /api/stt and the memo worker.
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { decodeTo16k } from '../../adapters/speech/ffmpeg.js';
import { engineUnavailable, speechAppError } from '../../adapter-errors/speech.js';
import { PayloadTooLargeError } from '../../errors.js';
import type { SttEngine } from '../../adapters/speech/engine.js';
import { DECODE_TIMEOUT_MS, type SpeechEngines } from './engines.js';
import { MAX_RECORDING_SECONDS, type TranscriptResponse } from './schema.js';

export class SttService {
  constructor(private readonly deps: { engines: SpeechEngines; pick: () => Promise<SttEngine | null> }) {}

  /** Refused before the upload is read: no engine, no decoder. */
  async assertAvailable(): Promise<SttEngine> {
    const stt = await this.deps.pick();
    if (!stt) throw engineUnavailable('transcription');
    if (!this.deps.engines.ffmpeg) throw engineUnavailable('audio decoding');
    return stt;
  }

  /** The text of the recording in `file` (already saved). */
  async transcribeFile(file: string, language: string, signal: AbortSignal): Promise<TranscriptResponse> {
    const stt = await this.assertAvailable();
    const { ffmpeg } = this.deps.engines;
    let pcm: Buffer;
    try {
      pcm = await decodeTo16k(ffmpeg!, file, { maxSeconds: MAX_RECORDING_SECONDS, signal, timeoutMs: DECODE_TIMEOUT_MS });
    } catch (err) {
      throw speechAppError(err, 'audio decoding');
    }
    const durationSeconds = Math.round((pcm.length / 32_000) * 100) / 100;
    if (durationSeconds > MAX_RECORDING_SECONDS) throw new PayloadTooLargeError(`That recording is longer than ${MAX_RECORDING_SECONDS / 60} minutes. Record or send a shorter one.`);
    if (pcm.length === 0) return { text: '', language, durationSeconds: 0 };
    try {
      const { text } = await stt.transcribe(pcm, { language, signal });
      return { text, language, durationSeconds };
    } catch (err) {
      throw speechAppError(err, 'transcription');
    }
  }
}

/** Where an upload waits while it is transcribed (a folder of Hearth's data dir, emptied at start). */
export class UploadTemp {
  constructor(private readonly dir: string) {}

  async start(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    await mkdir(this.dir, { recursive: true });
  }

  path(): string {
    return path.join(this.dir, randomUUID());
  }

  async remove(file: string): Promise<void> {
    await rm(file, { force: true });
  }
}
