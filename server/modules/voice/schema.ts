// Requests and answers of the voice routes: speech (/api/tts), transcription (/api/stt), the voice
// config (/api/voice, /api/admin/voice) and voice memos (/api/voice/memos).
import { z } from 'zod';

export const MAX_TTS_CHARS = 2_000;
/** POST /api/tts answers one WAV: for short texts. */
export const MAX_WAV_CHARS = 500;
export const MAX_RECORDING_SECONDS = 120;
/** 2 minutes of 48 kHz stereo WAV is 23 MB; compressed recordings are far smaller. */
export const MAX_RECORDING_BYTES = 25 * 1024 * 1024;

const VoiceId = z.string().trim().min(1).max(64);
const Rate = z.number().min(0.5).max(2);

export const SpeakRequest = z.strictObject({
  text: z.string().trim().min(1, 'Give the text to speak.').max(MAX_TTS_CHARS, `Speech is limited to ${MAX_TTS_CHARS} characters at a time.`),
  voice: VoiceId.optional(),
  rate: Rate.optional(),
});
export type SpeakRequest = z.infer<typeof SpeakRequest>;

export const WavRequest = SpeakRequest.extend({
  text: z.string().trim().min(1, 'Give the text to speak.').max(MAX_WAV_CHARS, `One WAV is for short texts (up to ${MAX_WAV_CHARS} characters); use the stream for longer ones.`),
});

/** The NDJSON lines of POST /api/tts/stream, in order: start, audio…, end (or error). */
export const TtsStartLine = z.strictObject({ type: z.literal('start'), sampleRate: z.number().int(), voice: z.string(), sentences: z.number().int() });
export const TtsAudioLine = z.strictObject({
  type: z.literal('audio'),
  seq: z.number().int(),
  sentence: z.number().int(),
  text: z.string().optional(),
  pcm: z.string(),
  samples: z.number().int(),
  sampleRate: z.number().int(),
  final: z.boolean(),
});
export const TtsEndLine = z.strictObject({ type: z.literal('end'), sentences: z.number().int(), samples: z.number().int() });
export const TtsErrorLine = z.strictObject({ type: z.literal('error'), code: z.string(), message: z.string() });
export type TtsLine = z.infer<typeof TtsStartLine> | z.infer<typeof TtsAudioLine> | z.infer<typeof TtsEndLine> | z.infer<typeof TtsErrorLine>;

export const TranscriptResponse = z.strictObject({ text: z.string(), language: z.string(), durationSeconds: z.number() });
export type TranscriptResponse = z.infer<typeof TranscriptResponse>;
export const SttQuery = z.object({ language: z.enum(['en']).default('en') });

export const VoiceInfo = z.strictObject({ id: z.string(), engine: z.string(), language: z.string(), name: z.string(), sampleRate: z.number().int() });
export type VoiceInfo = z.infer<typeof VoiceInfo>;
export const EngineInfo = z.strictObject({ id: z.string(), kind: z.enum(['tts', 'stt', 'decoder']), name: z.string(), available: z.boolean() });
export type EngineInfo = z.infer<typeof EngineInfo>;
export const WakeWordInfo = z.strictObject({ id: z.string(), name: z.string(), license: z.string(), modelUrl: z.string() });
export type WakeWordInfo = z.infer<typeof WakeWordInfo>;

/** `wakeWord`: the member's switch; `wakeWordId`: which one (null: the first the household has on). */
export const VoiceChoices = z.strictObject({ voice: z.string().nullable(), rate: z.number(), wakeWord: z.boolean(), wakeWordId: z.string().nullable() });
export type VoiceChoices = z.infer<typeof VoiceChoices>;
export const VoiceConfigResponse = z.strictObject({
  engines: z.array(EngineInfo),
  voices: z.array(VoiceInfo),
  defaultVoice: z.string().nullable(),
  tts: z.boolean(),
  stt: z.boolean(),
  wakeWords: z.array(WakeWordInfo),
  featureModelUrls: z.array(z.string()),
  /** Where onnxruntime-web loads its wasm from (same origin), or null when wake words cannot run. */
  wakeWordRuntimeUrl: z.string().nullable(),
  choices: VoiceChoices,
});
export type VoiceConfigResponse = z.infer<typeof VoiceConfigResponse>;
export const VoiceChoicesUpdate = z.strictObject({ voice: VoiceId.nullable().optional(), rate: Rate.optional(), wakeWord: z.boolean().optional(), wakeWordId: VoiceId.nullable().optional() });

export const AdminWakeWordsUpdate = z.strictObject({ enabled: z.array(z.string().trim().min(1).max(64)).max(20) });
export const AdminWakeWordsResponse = z.strictObject({
  /** The models and the browser runtime are installed. */
  available: z.boolean(),
  license: z.string(),
  wakeWords: z.array(z.strictObject({ id: z.string(), name: z.string(), enabled: z.boolean() })),
});
export type AdminWakeWordsResponse = z.infer<typeof AdminWakeWordsResponse>;

export const AdminVoiceUpdate = z.strictObject({ defaultVoice: VoiceId.nullable().optional(), sttEngine: z.string().trim().min(1).max(64).nullable().optional() });
/** A speech server an admin added, as the API shows it (never its key). */
export const RemoteEngine = z.strictObject({ id: z.string(), kind: z.enum(['openai', 'wyoming']), name: z.string(), url: z.string(), hasKey: z.boolean() });
export type RemoteEngine = z.infer<typeof RemoteEngine>;
export const AdminVoiceResponse = z.strictObject({ defaultVoice: z.string().nullable(), sttEngine: z.string().nullable(), engines: z.array(EngineInfo), remoteEngines: z.array(RemoteEngine) });
export const AddRemoteEngine = z.strictObject({
  kind: z.enum(['openai', 'wyoming']),
  name: z.string().trim().min(1, 'Give the speech server a name.').max(60),
  url: z
    .string()
    .trim()
    .max(300)
    .refine((u) => /^http:\/\/[^/?#@\s]+:\d{1,5}\/?$/.test(u), 'The address is http://host:port (for example http://192.168.1.20:8000).'),
  apiKey: z.string().trim().min(1).max(500).optional(),
});
export const RemoteEngineResponse = z.strictObject({ engine: RemoteEngine });
export const EngineTestResponse = z.strictObject({ ok: z.boolean(), message: z.string() });
export type AdminVoiceResponse = z.infer<typeof AdminVoiceResponse>;

export const MemoStatus = z.enum(['transcribing', 'ready', 'failed']);
export const Memo = z.strictObject({
  id: z.string(),
  title: z.string().nullable(),
  status: MemoStatus,
  text: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  mime: z.string(),
  bytes: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type Memo = z.infer<typeof Memo>;
export const MemoResponse = z.strictObject({ memo: Memo });
export const MemosResponse = z.strictObject({ memos: z.array(Memo) });
export const MemoUpdate = z.strictObject({ title: z.string().trim().max(200).nullable() });
export const MemoListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(100) });
