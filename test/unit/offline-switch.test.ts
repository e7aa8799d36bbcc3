// The household's offline switch (server/platform/offline-switch.ts): OFFLINE_MODE forces it on and
// the admin's choice cannot end that; the admin's choice is stored first and in effect at once; a
// change is told to listeners only when the state changes; a guard built on it reads it at each call.
import { describe, expect, it } from 'vitest';
import { OfflineSwitch, OFFLINE_SETTING, whenOnline } from '../../server/platform/offline-switch.js';
import { createSsrfGuard, OfflineModeError } from '../../server/platform/ssrf.js';

function memorySettings(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  return { values, get: async <T>(key: string) => values.get(key) as T | undefined, set: async (key: string, value: unknown) => void values.set(key, value) };
}

describe('OfflineSwitch', () => {
  it('is off until an admin switches it on; the choice is stored and told once per change', async () => {
    const settings = memorySettings();
    const sw = new OfflineSwitch(false, settings);
    await sw.load();
    const seen: boolean[] = [];
    sw.onChange((on) => seen.push(on));
    expect([sw.isOn(), sw.reason]).toEqual([false, null]);
    await sw.set(true);
    await sw.set(true);
    expect([sw.isOn(), sw.reason]).toEqual([true, 'admin']);
    expect(settings.values.get(OFFLINE_SETTING)).toBe(true);
    await sw.set(false);
    expect(seen).toEqual([true, false]);
  });

  it('reads the stored choice at start, and OFFLINE_MODE wins over it', async () => {
    const stored = new OfflineSwitch(false, memorySettings({ [OFFLINE_SETTING]: true }));
    await stored.load();
    expect(stored.reason).toBe('admin');
    const forced = new OfflineSwitch(true, memorySettings({ [OFFLINE_SETTING]: true }));
    await forced.load();
    const seen: boolean[] = [];
    forced.onChange((on) => seen.push(on));
    await forced.set(false);
    expect([forced.isOn(), forced.reason, forced.adminChoice]).toEqual([true, 'env', false]);
    expect(seen).toEqual([]);
  });

  it('a guard built on it refuses from the moment it is switched on, with the admin’s sentence', async () => {
    const sw = new OfflineSwitch(false);
    const guard = createSsrfGuard({ offline: sw });
    const derived = createSsrfGuard({ lanOrigins: ['http://192.168.1.10:8123'], offline: guard.offlineSource });
    expect(guard.checkUrl('https://example.com/').hostname).toBe('example.com');
    await sw.set(true);
    for (const g of [guard, derived]) {
      expect(g.offline).toBe(true);
      expect(() => g.checkUrl('https://example.com/')).toThrow(OfflineModeError);
      expect(() => g.checkUrl('https://example.com/')).toThrow(/An admin switched offline mode on/);
    }
    expect(guard.workerOptions).toEqual({ allowOrigins: [], offline: true, offlineReason: 'admin' });
    await sw.set(false);
    expect(derived.checkUrl('http://192.168.1.10:8123/').port).toBe('8123');
    expect(guard.workerOptions).toEqual({ allowOrigins: [], offline: false });
    await guard.close();
    await derived.close();
  });

  it('whenOnline skips a scheduled run while offline, checked at each run', async () => {
    const sw = new OfflineSwitch(false);
    let runs = 0;
    const run = whenOnline(sw, async () => void runs++);
    await run();
    await sw.set(true);
    await run();
    await sw.set(false);
    await run();
    expect(runs).toBe(2);
  });
});
