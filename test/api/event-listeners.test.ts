// No event without a listener: every event the server emits on the bus is listened to once the
// container has wired each module's listeners (the `listeners` of modules/<x>/module.ts). An event
// emitted with nobody listening is either a listener forgotten or a fact nobody needs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness/start-server.js';

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
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('has a listener for every event the server emits', () => {
    const bus = s.handle.deps.bus;
    const emitted = emittedEvents();
    expect(emitted.size).toBeGreaterThan(0);
    const unheard = [...emitted].filter(([name]) => !bus.listened().includes(name as never)).map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(unheard).toEqual([]);
  });

  it('has no listener for an event nobody emits', () => {
    const bus = s.handle.deps.bus;
    const emitted = emittedEvents();
    expect(bus.listened().filter((name) => !emitted.has(name))).toEqual([]);
  });
});
