// The home-layout module: the household's default home screen and each member's own.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineModule, type Platform } from '../module.js';
import type { HomeLayoutPorts } from './ports.js';
import { createHomeLayoutRoutes } from './routes.js';
import { HomeLayout } from './schema.js';
import { HomeLayoutService } from './service.js';

export function createHomeLayoutModule(p: Platform, ports: HomeLayoutPorts) {
  const builtinDefault = HomeLayout.parse(JSON.parse(readFileSync(path.join(p.config.resourcesDir, 'data', 'default-home-layout.json'), 'utf8')));
  const homeLayout = new HomeLayoutService({ preferences: p.preferences, settings: p.settings, auth: ports.users, builtinDefault, todaySetUp: ports.todaySetUp });
  return defineModule({
    name: 'home-layout',
    routes: [{ prefix: '/home-layout', routes: createHomeLayoutRoutes(homeLayout) }],
    services: { homeLayout },
  });
}
