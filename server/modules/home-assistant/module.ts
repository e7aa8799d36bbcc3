// The home-assistant module (issue 37): the household's Home Assistant, one kept-open connection an
// admin sets, and what each member may see and control through Hearth.
import { defineModule, type Platform } from '../module.js';
import { createHomeControlTool } from './chat-tool.js';
import { ConnectionService } from './connection-service.js';
import { ControlService } from './control-service.js';
import { homeAssistantToolChecks, homeAssistantTools } from './extensions.js';
import type { HomeAssistantPorts } from './ports.js';
import { createHomeAssistantAdminRoutes, createHomeAssistantRoutes } from './routes.js';
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
  });
  const homeControl = new ControlService({ store, connection: homeAssistant, clock: p.clock, users: ports.users, content: ports.content });
  return defineModule({
    name: 'home-assistant',
    routes: [
      { prefix: '/home-assistant', routes: createHomeAssistantRoutes(homeControl, p.sse) },
      { prefix: '/admin/home-assistant', routes: createHomeAssistantAdminRoutes(homeAssistant, homeControl) },
    ],
    services: { homeAssistant, homeControl },
    chatTools: [createHomeControlTool({ control: homeControl })],
    extensions: { definitions: homeAssistantTools, checks: homeAssistantToolChecks({ connection: homeAssistant, chatReadiness: ports.chatReadiness }) },
    start: () => homeAssistant.start(),
    close: () => homeAssistant.close(),
  });
}
