// The voice module (issue 34): speech from local engines streamed sentence by sentence
// (/api/tts), transcription (/api/stt), the voice config (/api/voice, /api/admin/voice) and voice
// memos (/api/voice/memos) transcribed in the background, and the wake-word models the browser runs
// (/api/voice/wakewords, /api/admin/wakewords). The engines are programs found on the
// PATH at start (espeak-ng, flite, festival, pocketsphinx, ffmpeg); a missing one is a 503 sentence.
import path from 'node:path';
import { defineModule, type Platform } from '../module.js';
import { VoiceConfigService } from './config-service.js';
import { createAdminVoiceRoutes, createAdminWakeWordRoutes, createVoiceConfigRoutes, createWakeWordFileRoutes } from './config-routes.js';
import { probeEngines } from './engines.js';
import { RemoteEnginesService } from './remotes-service.js';
import { createMemoRoutes } from './memos-routes.js';
import { MemosService } from './memos-service.js';
import { MemosStore } from './memos-store.js';
import { createMemoSearchProvider } from './search-provider.js';
import { createSttRoutes, createTtsRoutes } from './speech-routes.js';
import { SttService, UploadTemp } from './stt-service.js';
import { TtsService } from './tts-service.js';
import { WakeWordsService } from './wakewords-service.js';

export function createVoiceModule(p: Platform) {
  const logger = p.logger.child('voice');
  const scratch = path.join(p.config.dataDir, 'voice', 'tmp');
  const engines = probeEngines(p.config.searchPath, scratch);
  const remotes = new RemoteEnginesService({ engines, settings: p.settings, base: p.guard, timeoutMs: p.tuning.voiceRemoteTimeoutMs });
  const wakeWords = new WakeWordsService({ settings: p.settings });
  const voiceConfig = new VoiceConfigService({ engines, remotes, settings: p.settings, preferences: p.preferences, wakeWords });
  const tts = new TtsService({ config: voiceConfig, logger });
  const stt = new SttService({ engines, pick: () => voiceConfig.sttEngine() });
  const temp = new UploadTemp(scratch);
  const memos = new MemosService({ store: new MemosStore(p.db), stt, dir: path.join(p.config.dataDir, 'voice', 'memos'), disk: p.diskSpace, clock: p.clock, logger });
  return defineModule({
    name: 'voice',
    routes: [
      { prefix: '/tts', routes: createTtsRoutes(tts) },
      { prefix: '/stt', routes: createSttRoutes(stt, temp) },
      { prefix: '/voice/memos', routes: createMemoRoutes(memos) },
      { prefix: '/voice/wakewords', routes: createWakeWordFileRoutes(wakeWords) },
      { prefix: '/voice', routes: createVoiceConfigRoutes(voiceConfig) },
      { prefix: '/admin/voice', routes: createAdminVoiceRoutes(voiceConfig, remotes) },
      { prefix: '/admin/wakewords', routes: createAdminWakeWordRoutes(wakeWords) },
    ],
    services: { voiceConfig, tts, stt, memos, wakeWords },
    searchProviders: [createMemoSearchProvider(memos)],
    listeners: [{ event: 'user.deleted', run: (e) => memos.onUserDeleted(e.userId) }],
    start: async () => {
      logger.info({ tts: [...engines.tts.keys()], stt: engines.stt?.id ?? null, ffmpeg: engines.ffmpeg !== null }, 'speech engines');
      await temp.start();
      await remotes.load();
      await memos.start();
    },
    close: async () => {
      await memos.close();
      await remotes.close();
    },
  });
}
