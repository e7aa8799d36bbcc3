// The one translation of a speech engine failure (adapters/speech/) into an answer: one status,
// code and sentence per kind (docs/architecture.md, "Adapter failures"). The adapter's message names
// programs and limits: log only.
import { SpeechEngineError, type SpeechFailure } from '../adapters/speech/engine.js';
import { AppError } from '../errors.js';

/** The speech engine's failure kind, for a log line or a memo's state; null for anything else. */
export function speechFailureKind(err: unknown): SpeechFailure | null {
  return err instanceof SpeechEngineError ? err.failure : null;
}

/** The 503 of an engine that is not on this computer (also said before any program is started). */
export function engineUnavailable(what: 'speech' | 'transcription' | 'audio decoding'): AppError {
  const how = {
    speech: 'No speech engine is installed on the Hearth computer. An admin can install espeak-ng or flite (or add a speech server) to turn speech on.',
    transcription: 'No transcription engine is installed on the Hearth computer. An admin can install pocketsphinx with its English model (or add a speech server) to turn transcription on.',
    'audio decoding': 'The Hearth computer has no audio decoder. An admin can install ffmpeg to turn transcription on.',
  }[what];
  return new AppError(503, 'engine_unavailable', how);
}

/** A speech engine failure as its AppError; anything else comes back unchanged. */
export function speechAppError(err: unknown, what: 'speech' | 'transcription' | 'audio decoding' = 'speech'): unknown {
  if (!(err instanceof SpeechEngineError)) return err;
  switch (err.failure) {
    case 'missing':
      return engineUnavailable(what);
    case 'timeout':
      return new AppError(504, 'engine_timeout', 'The speech engine took too long. Try a shorter text or recording.');
    case 'unreadable_audio':
      return new AppError(415, 'unsupported_media_type', 'Hearth could not read that recording. Send a webm, ogg, mp4, mp3 or wav audio file.');
    case 'aborted':
      return new AppError(499, 'aborted', 'The request was stopped before it finished.');
    case 'unreachable':
      return new AppError(503, 'engine_unavailable', 'The speech server an admin added is not answering right now. Try again in a minute, or an admin can check it in the voice settings.');
    case 'bad_response':
    case 'failed':
      return new AppError(502, 'engine_failed', 'The speech engine could not finish this time. Try again; if it keeps happening, an admin can check the voice settings.');
  }
}
