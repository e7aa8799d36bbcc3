// The music module: each member's pieces, made on the image engine's audio pipeline (Stable Audio
// Open) and kept under DATA_DIR/music/<userId>.
import path from 'node:path';
import { STALL_MS } from '../image-gen/schema.js';
import { defineModule, type Platform } from '../module.js';
import type { MusicPorts } from './ports.js';
import { createMusicRoutes } from './routes.js';
import { MusicService } from './service.js';
import { MusicStore } from './store.js';

export function createMusicModule(p: Platform, ports: MusicPorts) {
  const music = new MusicService({
    store: new MusicStore(p.db),
    engine: ports.engine,
    content: ports.content,
    dir: path.join(p.config.dataDir, 'music'),
    disk: p.diskSpace,
    clock: p.clock,
    logger: p.logger.child('music'),
    stallMs: p.tuning.imageStallMs ?? STALL_MS,
    readyWaitMs: 20_000,
  });
  return defineModule({
    name: 'music',
    storageAreas: [{ key: 'music', label: 'Generated music', folders: ['music'] }],
    routes: [{ prefix: '/music', routes: createMusicRoutes(music, p.sse) }],
    services: { music },
    listeners: [{ event: 'user.deleted', run: (e) => music.onUserDeleted(e.userId) }],
    close: () => music.close(),
  });
}
