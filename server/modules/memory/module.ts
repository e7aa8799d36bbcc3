// The memory module: chat memory, /api/chat/memory (a member's own) and /api/admin/memory (the
// household's switch); chat reads a member's memories through MemoryService, and calls the
// `remember` tool (chat-tool.ts, its Extension in extensions.ts) to keep a fact it was asked to.
import { defineModule, type Platform } from '../module.js';
import { createRememberTool } from './chat-tool.js';
import { memoryToolChecks, memoryTools } from './extensions.js';
import type { MemoryPorts } from './ports.js';
import { createMemoryAdminRoutes, createMemoryRoutes } from './routes.js';
import { MemoryService } from './service.js';
import { MemoryStore } from './store.js';

export function createMemoryModule(p: Platform, ports: MemoryPorts) {
  const memory = new MemoryService({ store: new MemoryStore(p.db), settings: p.settings, clock: p.clock });
  return defineModule({
    name: 'memory',
    routes: [
      { prefix: '/chat/memory', routes: createMemoryRoutes(memory) },
      { prefix: '/admin/memory', routes: createMemoryAdminRoutes(memory) },
    ],
    services: { memory },
    chatTools: [createRememberTool({ memory })],
    extensions: { definitions: memoryTools, checks: memoryToolChecks({ chatReadiness: ports.chatReadiness, enabled: () => memory.enabled() }) },
  });
}
