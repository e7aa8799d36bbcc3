// The home-assistant module (issue 37): the household's Home Assistant, one kept-open connection an
// admin sets, and what each member may see and control through Hearth.
import { defineModule, type Platform } from '../module.js';
import { CameraService } from './camera-service.js';
import { CameraStore } from './camera-store.js';
import { createHomeControlTool } from './chat-tool.js';
import { ConnectionService } from './connection-service.js';
import { ControlService } from './control-service.js';
import { homeAssistantToolChecks, homeAssistantTools } from './extensions.js';
import type { HomeAssistantPorts } from './ports.js';
import { createFrigateAdminRoutes, createHomeAssistantAdminRoutes, createHomeAssistantRoutes } from './routes.js';
import { HomeAssistantStore } from './store.js';

export function createHomeAssistantModule(p: Platform, ports: HomeAssistantPorts) {
  const store = new HomeAssistantStore(p.db);
  const homeAssistant = new ConnectionService({
    store,
    clock: p.clock,
    logger: p.logger.child('home-assistant'),
    base: p.guard,
    timeoutMs: p.tuning.homeAssistantTimeoutMs,
    backoffMs: p.tuning.homeAssistantBackoffMs,
    pingMs: p.tuning.homeAssistantPingMs,
  });
  const homeControl = new ControlService({ store, connection: homeAssistant, clock: p.clock, users: ports.users, content: ports.content });
  const cameras = new CameraService({
    store: new CameraStore(p.db),
    clock: p.clock,
    logger: p.logger.child('cameras'),
    base: p.guard,
    users: ports.users,
    notifications: ports.notifications,
    timeoutMs: p.tuning.homeAssistantTimeoutMs,
  });
  return defineModule({
    name: 'home-assistant',
    routes: [
      { prefix: '/home-assistant', routes: createHomeAssistantRoutes(homeControl, cameras, p.sse) },
      { prefix: '/admin/home-assistant', routes: createHomeAssistantAdminRoutes(homeAssistant, homeControl) },
      { prefix: '/admin/frigate', routes: createFrigateAdminRoutes(cameras) },
    ],
    services: { homeAssistant, homeControl, cameras },
    tasks: [{ name: 'home-assistant.cameras', everyMs: p.tuning.frigatePollMs ?? 10_000, run: () => cameras.poll() }],
    chatTools: [createHomeControlTool({ control: homeControl })],
    extensions: { definitions: homeAssistantTools, checks: homeAssistantToolChecks({ connection: homeAssistant, chatReadiness: ports.chatReadiness }) },
    start: async () => {
      await homeAssistant.start();
      await cameras.start();
    },
    close: async () => {
      await cameras.close();
      await homeAssistant.close();
    },
  });
}
