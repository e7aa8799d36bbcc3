// Speech servers an admin adds (OpenAI-compatible: speaches, openedai-speech, Kokoro-FastAPI,
// LocalAI, whisper.cpp's server): kept in the app settings with their keys, which no answer carries;
// each reached through the SSRF guard with its own origin let through as a home-network address.
// Adding, removing and testing one; the engines it gives are put beside the local ones.
import { randomBytes } from 'node:crypto';
import type { SttEngine, TtsEngine } from '../../adapters/speech/engine.js';
import { createOpenAiStt, createOpenAiTts } from '../../adapters/speech/openai.js';
import { createWyomingStt, createWyomingTts } from '../../adapters/speech/wyoming.js';
import { speechAppError } from '../../adapter-errors/speech.js';
import { assertAdmin, type Actor } from '../../actor.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { NotFoundError, publicError } from '../../errors.js';
import { createSsrfGuard, type SsrfGuard } from '../../platform/ssrf.js';
import { STT_TIMEOUT_MS, type SpeechEngines } from './engines.js';
import type { RemoteEngine } from './schema.js';

const KEY = 'voice.remoteEngines';
/** A sentence's speech must start within this (default; tuning.voiceRemoteTimeoutMs); a transcription may take STT_TIMEOUT_MS. */
const REMOTE_TIMEOUT_MS = 30_000;

interface Stored {
  id: string;
  kind: 'openai' | 'wyoming';
  name: string;
  url: string;
  apiKey: string | null;
}

export class RemoteEnginesService {
  private guards: SsrfGuard[] = [];

  constructor(private readonly deps: { engines: SpeechEngines; settings: AppSettingsStore; base: Pick<SsrfGuard, 'allowOrigins' | 'offline' | 'offlineSource'>; timeoutMs?: number }) {}

  private get timeoutMs(): number {
    return this.deps.timeoutMs ?? REMOTE_TIMEOUT_MS;
  }

  private async stored(): Promise<Stored[]> {
    return (await this.deps.settings.get<Stored[]>(KEY)) ?? [];
  }

  private static view(s: Stored): RemoteEngine {
    return { id: s.id, kind: s.kind, name: s.name, url: s.url, hasKey: s.apiKey !== null };
  }

  async list(): Promise<RemoteEngine[]> {
    return (await this.stored()).map(RemoteEnginesService.view);
  }

  /** Builds the engines of every stored server (at start and after each change). */
  async load(): Promise<void> {
    const e = this.deps.engines;
    for (const r of e.remote) e.tts.delete(r.id);
    const old = this.guards;
    this.guards = [];
    e.remote = (await this.stored()).map((s) => {
      const guard = createSsrfGuard({ allowOrigins: this.deps.base.allowOrigins, lanOrigins: [new URL(s.url).origin], offline: this.deps.base.offlineSource });
      this.guards.push(guard);
      const { tts, stt } = this.engineOf(s, guard);
      e.tts.set(s.id, tts);
      return { id: s.id, name: s.name, tts, stt };
    });
    await Promise.all(old.map((g) => g.close()));
  }

  private engineOf(s: Stored, guard: SsrfGuard): { tts: TtsEngine; stt: SttEngine } {
    if (s.kind === 'wyoming') {
      const url = new URL(s.url);
      const o = { id: s.id, host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port), lookup: guard.lookup, checkAddress: () => void guard.checkUrl(s.url), timeoutMs: this.timeoutMs };
      return { tts: createWyomingTts(o), stt: createWyomingStt({ ...o, timeoutMs: STT_TIMEOUT_MS }) };
    }
    const o = { id: s.id, baseUrl: s.url, apiKey: s.apiKey, checkUrl: (raw: string) => guard.checkUrl(raw), dispatcher: guard.dispatcher, timeoutMs: this.timeoutMs };
    return { tts: createOpenAiTts({ ...o, voice: 'alloy' }), stt: createOpenAiStt({ ...o, timeoutMs: STT_TIMEOUT_MS }) };
  }

  async add(actor: Actor, body: { kind: 'openai' | 'wyoming'; name: string; url: string; apiKey?: string }): Promise<RemoteEngine> {
    assertAdmin(actor);
    const entry: Stored = { id: `r${randomBytes(4).toString('hex')}`, kind: body.kind, name: body.name, url: new URL(body.url).origin, apiKey: body.apiKey ?? null };
    await this.deps.settings.set(KEY, [...(await this.stored()), entry]);
    await this.load();
    return RemoteEnginesService.view(entry);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    assertAdmin(actor);
    const all = await this.stored();
    if (!all.some((s) => s.id === id)) throw new NotFoundError('That speech server is not in the list (it may have been removed).');
    await this.deps.settings.set(
      KEY,
      all.filter((s) => s.id !== id),
    );
    await this.load();
  }

  /** Asks the server to say one short sentence: `{ok, message}` in words for the admin. */
  async test(actor: Actor, id: string): Promise<{ ok: boolean; message: string }> {
    assertAdmin(actor);
    const r = this.deps.engines.remote.find((x) => x.id === id);
    if (!r) throw new NotFoundError('That speech server is not in the list (it may have been removed).');
    try {
      let samples = 0;
      for await (const c of r.tts.synthesize('Hello.', { rate: 1, signal: AbortSignal.timeout(this.timeoutMs * 2) })) samples += c.pcm.length / 2;
      return { ok: true, message: `${r.name} answered with ${(samples / r.tts.sampleRate).toFixed(1)} seconds of speech.` };
    } catch (err) {
      return { ok: false, message: publicError(speechAppError(err)).message };
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.guards.map((g) => g.close()));
    this.guards = [];
  }
}
