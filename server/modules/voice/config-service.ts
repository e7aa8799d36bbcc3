// The voice config: which engines and voices this computer has (from the probe at start), the
// household's defaults (admin) and each member's own choices (voice, rate, wake word).
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { AppSettingsStore, UserPreferencesStore } from '../../db/kv.js';
import type { SttEngine } from '../../adapters/speech/engine.js';
import { BadRequestError } from '../../errors.js';
import { engineList, pickVoice, voiceList, type SpeechEngines } from './engines.js';
import type { RemoteEnginesService } from './remotes-service.js';
import type { WakeWordsService } from './wakewords-service.js';
import type { AdminVoiceResponse, EngineInfo, VoiceChoices, VoiceConfigResponse } from './schema.js';

const DEFAULT_VOICE_KEY = 'voice.defaultVoice';
const STT_ENGINE_KEY = 'voice.sttEngine';
const CHOICES_KEY = 'voice.choices';
const DEFAULT_CHOICES: VoiceChoices = { voice: null, rate: 1, wakeWord: false, wakeWordId: null };

export class VoiceConfigService {
  constructor(private readonly deps: { engines: SpeechEngines; remotes: Pick<RemoteEnginesService, 'list'>; settings: AppSettingsStore; preferences: UserPreferencesStore; wakeWords: Pick<WakeWordsService, 'enabled' | 'featureModelUrls' | 'runtimeUrl'> }) {}

  /** The transcription engine: the admin's choice of speech server, else pocketsphinx when present. */
  async sttEngine(): Promise<SttEngine | null> {
    const chosen = await this.deps.settings.get<string>(STT_ENGINE_KEY);
    const remote = this.deps.engines.remote.find((r) => r.id === chosen);
    return remote?.stt ?? this.deps.engines.stt;
  }

  private allEngines(): EngineInfo[] {
    const remote = this.deps.engines.remote.flatMap((r): EngineInfo[] => [
      { id: r.id, kind: 'tts', name: r.name, available: true },
      { id: r.id, kind: 'stt', name: r.name, available: true },
    ]);
    return [...engineList(this.deps.engines), ...remote];
  }

  get engines(): SpeechEngines {
    return this.deps.engines;
  }

  pick(voice: string | null | undefined) {
    return pickVoice(this.deps.engines, voice);
  }

  async defaultVoice(): Promise<string | null> {
    return (await this.deps.settings.get<string>(DEFAULT_VOICE_KEY)) ?? null;
  }

  async choicesOf(actor: UserActor): Promise<VoiceChoices> {
    const saved = await this.deps.preferences.get<Partial<VoiceChoices>>(actor.id, CHOICES_KEY);
    return { ...DEFAULT_CHOICES, ...saved };
  }

  async config(actor: UserActor): Promise<VoiceConfigResponse> {
    const e = this.deps.engines;
    return {
      engines: this.allEngines(),
      voices: voiceList(e),
      defaultVoice: await this.defaultVoice(),
      tts: e.tts.size > 0,
      stt: (await this.sttEngine()) !== null && e.ffmpeg !== null,
      wakeWords: await this.deps.wakeWords.enabled(),
      featureModelUrls: this.deps.wakeWords.featureModelUrls(),
      wakeWordRuntimeUrl: this.deps.wakeWords.runtimeUrl(),
      choices: await this.choicesOf(actor),
    };
  }

  private knownVoice(id: string): void {
    if (!voiceList(this.deps.engines).some((v) => v.id === id)) throw new BadRequestError(`There is no voice called ${id} on this computer. Choose one from the voice list.`);
  }

  async updateChoices(actor: UserActor, patch: Partial<VoiceChoices>): Promise<VoiceConfigResponse> {
    if (patch.voice) this.knownVoice(patch.voice);
    if (patch.wakeWordId && !(await this.deps.wakeWords.enabled()).some((w) => w.id === patch.wakeWordId)) {
      throw new BadRequestError(`There is no wake word called ${patch.wakeWordId} switched on here. Choose one from the wake-word list.`);
    }
    const next = { ...(await this.choicesOf(actor)), ...patch };
    await this.deps.preferences.set(actor.id, CHOICES_KEY, next);
    return this.config(actor);
  }

  async adminSettings(actor: Actor): Promise<AdminVoiceResponse> {
    assertAdmin(actor);
    return {
      defaultVoice: await this.defaultVoice(),
      sttEngine: (await this.deps.settings.get<string>(STT_ENGINE_KEY)) ?? null,
      engines: this.allEngines(),
      remoteEngines: await this.deps.remotes.list(),
    };
  }

  async updateAdmin(actor: Actor, patch: { defaultVoice?: string | null; sttEngine?: string | null }): Promise<AdminVoiceResponse> {
    assertAdmin(actor);
    if (patch.defaultVoice) this.knownVoice(patch.defaultVoice);
    if (patch.sttEngine && patch.sttEngine !== 'pocketsphinx' && !this.deps.engines.remote.some((r) => r.id === patch.sttEngine)) {
      throw new BadRequestError('There is no transcription engine by that name. Choose pocketsphinx or a speech server from the list.');
    }
    if (patch.defaultVoice !== undefined) await this.deps.settings.set(DEFAULT_VOICE_KEY, patch.defaultVoice);
    if (patch.sttEngine !== undefined) await this.deps.settings.set(STT_ENGINE_KEY, patch.sttEngine);
    return this.adminSettings(actor);
  }
}
