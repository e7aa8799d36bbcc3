// Which speech engines this computer has: a probe at start looks for each program on the PATH
// (config.searchPath) and builds the engines found (festival only with its HTS voice installed);
// the voices each offers; picking one for a request (a missing engine is 503 engine_unavailable
// with a sentence, never a crash).
import { existsSync } from 'node:fs';
import { createEspeakNg } from '../../adapters/speech/espeak-ng.js';
import type { SttEngine, TtsEngine } from '../../adapters/speech/engine.js';
import { createFestival, FESTIVAL_HTS_VOICE_DIR } from '../../adapters/speech/festival.js';
import { createFlite } from '../../adapters/speech/flite.js';
import { createPocketsphinx } from '../../adapters/speech/pocketsphinx.js';
import { engineUnavailable } from '../../adapter-errors/speech.js';
import { BadRequestError } from '../../errors.js';
import { findProgram } from '../../platform/find-program.js';
import type { EngineInfo, VoiceInfo } from './schema.js';

/** Per sentence; per transcription of up to 2 minutes (pocketsphinx runs at ~0.5× real time here). */
export const TTS_TIMEOUT_MS = 20_000;
export const STT_TIMEOUT_MS = 180_000;
export const DECODE_TIMEOUT_MS = 60_000;

/** The English model pocketsphinx-en-us installs (pocketsphinx itself is useless without it). */
const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us';

/** The voice a speech server an admin added is asked for (OpenAI's first voice; most servers map it). */
export const REMOTE_VOICE = 'alloy';

/** A remote server's voice id; one whose server was removed falls back like a missing engine's. */
export const REMOTE_VOICE_ID = /^r[0-9a-f]{8}:/;

const VOICES: Array<Omit<VoiceInfo, 'sampleRate'>> = [
  { id: 'flite:slt', engine: 'flite', language: 'en-US', name: 'Sarah (flite, US English)' },
  { id: 'flite:rms', engine: 'flite', language: 'en-US', name: 'Robert (flite, US English)' },
  { id: 'flite:awb', engine: 'flite', language: 'en-GB', name: 'Alan (flite, Scottish English)' },
  { id: 'flite:kal16', engine: 'flite', language: 'en-US', name: 'Ken (flite, US English)' },
  { id: 'festival:slt-hts', engine: 'festival', language: 'en-US', name: 'Sarah HD (festival, US English, slower to start)' },
  { id: 'espeak-ng:en-us', engine: 'espeak-ng', language: 'en-US', name: 'eSpeak (US English, robotic)' },
  { id: 'espeak-ng:en-gb', engine: 'espeak-ng', language: 'en-GB', name: 'eSpeak (British English, robotic)' },
];

export interface SpeechEngines {
  tts: Map<string, TtsEngine>;
  stt: SttEngine | null;
  /** The ffmpeg program, or null. */
  ffmpeg: string | null;
  /** Speech servers an admin added: each speaks (in `tts` under its id too) and transcribes. */
  remote: Array<{ id: string; name: string; tts: TtsEngine; stt: SttEngine }>;
}

/** `scratchDir`: where flite and pocketsphinx read and write their files (emptied at start). */
export function probeEngines(searchPath: string[], scratchDir: string): SpeechEngines {
  const tts = new Map<string, TtsEngine>();
  const flite = findProgram(['flite'], searchPath);
  if (flite) tts.set('flite', createFlite(flite, { timeoutMs: TTS_TIMEOUT_MS, scratchDir }));
  const festival = findProgram(['text2wave'], searchPath);
  if (festival && existsSync(FESTIVAL_HTS_VOICE_DIR)) tts.set('festival', createFestival(festival, TTS_TIMEOUT_MS));
  const espeak = findProgram(['espeak-ng'], searchPath);
  if (espeak) tts.set('espeak-ng', createEspeakNg(espeak, TTS_TIMEOUT_MS));
  const sphinx = findProgram(['pocketsphinx_continuous'], searchPath);
  const stt = sphinx && existsSync(`${POCKETSPHINX_MODEL}`) ? createPocketsphinx(sphinx, { timeoutMs: STT_TIMEOUT_MS, scratchDir }) : null;
  return { tts, stt, ffmpeg: findProgram(['ffmpeg'], searchPath), remote: [] };
}

export function engineList(e: SpeechEngines): EngineInfo[] {
  return [
    { id: 'flite', kind: 'tts', name: 'flite', available: e.tts.has('flite') },
    { id: 'espeak-ng', kind: 'tts', name: 'eSpeak NG', available: e.tts.has('espeak-ng') },
    { id: 'festival', kind: 'tts', name: 'Festival (HTS voice)', available: e.tts.has('festival') },
    { id: 'pocketsphinx', kind: 'stt', name: 'PocketSphinx (English)', available: e.stt !== null },
    { id: 'ffmpeg', kind: 'decoder', name: 'FFmpeg', available: e.ffmpeg !== null },
  ];
}

/** The voices of the engines present. */
export function voiceList(e: SpeechEngines): VoiceInfo[] {
  const local = VOICES.flatMap((v) => {
    const engine = e.tts.get(v.engine);
    return engine ? [{ ...v, sampleRate: engine.sampleRate }] : [];
  });
  return [...local, ...e.remote.map((r) => ({ id: `${r.id}:${REMOTE_VOICE}`, engine: r.id, language: 'en', name: `${r.name} (speech server)`, sampleRate: r.tts.sampleRate }))];
}

/** The engine and its own voice name for a voice id (`engine:name`); the first voice present when none is asked. */
export function pickVoice(e: SpeechEngines, wanted: string | null | undefined): { id: string; engine: TtsEngine; name: string } {
  const voices = voiceList(e);
  if (voices.length === 0) throw engineUnavailable('speech');
  const id = wanted && voices.some((v) => v.id === wanted) ? wanted : null;
  if (wanted && !id && !VOICES.some((v) => v.id === wanted) && !REMOTE_VOICE_ID.test(wanted)) throw new BadRequestError(`There is no voice called ${wanted}. Choose one from the voice list.`);
  // a known voice whose engine is missing falls back to one that is present
  const chosen = id ?? voices[0]!.id;
  const [engineId, name] = chosen.split(':') as [string, string];
  // a remote server's one voice is its own default
  return { id: chosen, engine: e.tts.get(engineId)!, name };
}
