// No event without a listener: every event the server emits on the bus is listened to once the
// container wires the listeners (wireEvents in server/container.ts). An event emitted with nobody
// listening is either a listener forgotten or a fact nobody needs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wireEvents } from '../../server/container.js';
import type { ConditionNotifications } from '../../server/modules/notifications/conditions.js';
import type { DownloadsService } from '../../server/modules/downloads/service.js';
import type { ChatService } from '../../server/modules/chat/service.js';
import type { FeaturesService } from '../../server/modules/features/service.js';
import type { ModelHubService } from '../../server/modules/image-gen/hub.js';
import type { ModelsService } from '../../server/modules/models/service.js';
import type { ImageArtifactsService } from '../../server/modules/image-gen/artifacts.js';
import type { ReaderItemsService } from '../../server/modules/reader/items.js';
import { EventBus } from '../../server/platform/event-bus.js';
import { createMemoryLogger } from '../../server/platform/logger.js';

const serverDir = path.resolve(import.meta.dirname, '../../server');

function emittedEvents(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const entry of readdirSync(serverDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const m of readFileSync(file, 'utf8').matchAll(/\bbus\.emit\(\s*['"]([\w.-]+)['"]/g)) {
      const name = m[1] ?? '';
      found.set(name, [...(found.get(name) ?? []), path.relative(serverDir, file)]);
    }
  }
  return found;
}

describe('event bus', () => {
  it('has a listener for every event the server emits', () => {
    const bus = new EventBus(createMemoryLogger());
    wireEvents(bus, { features: {} as FeaturesService, readerItems: {} as ReaderItemsService, chat: {} as ChatService, models: {} as ModelsService, imageHub: {} as ModelHubService, imageArtifacts: {} as ImageArtifactsService, conditions: {} as ConditionNotifications, downloads: {} as DownloadsService });
    const emitted = emittedEvents();
    expect(emitted.size).toBeGreaterThan(0);
    const unheard = [...emitted].filter(([name]) => !bus.listened().includes(name as never)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(unheard).toEqual([]);
  });

  it('has no listener for an event nobody emits', () => {
    const bus = new EventBus(createMemoryLogger());
    wireEvents(bus, { features: {} as FeaturesService, readerItems: {} as ReaderItemsService, chat: {} as ChatService, models: {} as ModelsService, imageHub: {} as ModelHubService, imageArtifacts: {} as ImageArtifactsService, conditions: {} as ConditionNotifications, downloads: {} as DownloadsService });
    const emitted = emittedEvents();
    expect(bus.listened().filter((name) => !emitted.has(name))).toEqual([]);
  });
});
