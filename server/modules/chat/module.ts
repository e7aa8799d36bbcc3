// The chat module: conversations and projects, the answer stream, and the chat tools the other
// modules contribute (gathered once every module is built).
import { defineModule, type Platform } from '../module.js';
import { ChatImageFiles } from './images.js';
import type { ChatPorts } from './ports.js';
import { createChatRoutes, createProjectRoutes } from './routes.js';
import { RunningAnswers } from './running.js';
import { conversationSearchProvider } from './search-provider.js';
import { ChatService } from './service.js';
import { ChatStore } from './store.js';
import { ChatStreamService } from './stream-service.js';
import { ChatToolRegistry } from './tool-registry.js';

export function createChatModule(p: Platform, ports: ChatPorts) {
  const store = new ChatStore(p.db);
  const files = new ChatImageFiles(p.config.dataDir);
  const running = new RunningAnswers();
  const chatTools = new ChatToolRegistry();
  const chat = new ChatService({ store, files, running, clock: p.clock });
  const chatStream = new ChatStreamService({
    chat,
    store,
    files,
    running,
    runtime: p.modelRuntime,
    details: ports.details,
    picker: ports.picker,
    looker: ports.looker,
    tools: chatTools,
    extensions: ports.extensions,
    content: ports.content,
    memory: ports.memory,
    companions: ports.companions,
    skills: ports.skills,
    ...(ports.vision ? { vision: ports.vision } : {}),
    clock: p.clock,
    logger: p.logger.child('chat'),
    firstTokenMs: p.tuning.chatFirstTokenMs,
    titleMs: p.tuning.chatTitleMs,
  });
  const standIns = ports.standIns ?? [];

  return defineModule({
    name: 'chat',
    routes: [
      { prefix: '/chat', routes: createChatRoutes(chat, chatStream, p.sse) },
      { prefix: '/projects', routes: createProjectRoutes(chat) },
    ],
    services: { chat, chatTools },
    searchProviders: [conversationSearchProvider(chat)],
    // a deleted member's conversations went with their row; their files on disk go here
    listeners: [{ event: 'user.deleted', run: (e) => chat.onUserDeleted(e.userId) }],
    // answers a stopped Hearth left half-written keep what they had written, as stopped
    start: () => chat.stopLeftoverAnswers(),
    // each module that owns household knowledge contributes its chat tool (modules/<x>/chat-tool.ts)
    gather: (modules) => {
      const tools = modules.flatMap((m) => m.chatTools ?? []);
      chatTools.register(...tools.filter((t) => !standIns.some((s) => s.id === t.id)), ...standIns);
    },
  });
}
