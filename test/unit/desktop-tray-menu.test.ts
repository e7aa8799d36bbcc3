// The tray menu model: a pure function of the desktop's status.
import { describe, expect, it } from 'vitest';
import { trayMenu, trayTooltip, type TrayItem, type TrayStatus } from '../../main/menu.js';
import type { ServerStatuses } from '../../main/status.js';

const okStatuses: ServerStatuses = {
  archives: { kind: 'ok', value: { kiwixInstalled: true, kiwixState: 'ready', kiwixError: null, installedCount: 3 } },
  modelRuntime: { kind: 'ok', value: { installed: true, running: true, version: '0.5.7', models: [{ name: 'llama3.2:3b' }, { name: 'qwen2.5:7b' }], error: null } },
};

const status = (over: Partial<TrayStatus> = {}): TrayStatus => ({
  server: { state: 'running', port: 8787, urls: ['http://192.168.1.20:8787', 'http://10.0.0.7:8787'], error: null },
  statuses: okStatuses,
  openAtLogin: { supported: true, enabled: false },
  dataMove: null,
  ...over,
});

const labels = (items: TrayItem[]) => items.map((i) => (i.type === 'separator' ? '---' : i.label));
const find = (items: TrayItem[], key: string) => items.find((i) => (i.type === 'status' ? i.id === key : i.type !== 'separator' && i.action === key));
const enabled = (items: TrayItem[], action: string) => {
  const item = find(items, action);
  return item && (item.type === 'action' || item.type === 'checkbox') ? item.enabled : undefined;
};

describe('tray menu', () => {
  it('lists everything the issue asks for, in order, while the server runs', () => {
    expect(labels(trayMenu(status()))).toEqual([
      'Open Hearth',
      'Admin',
      '---',
      'Hearth is running on port 8787',
      'On phones: http://192.168.1.20:8787/trust (QR code)',
      '---',
      'Archive server: running, 3 archives',
      'Image engine: not set up',
      'Model runtime: running (Ollama 0.5.7, 2 models)',
      '---',
      'Start at login',
      'Open data folder',
      'Change data folder…',
      'Open logs',
      '---',
      'Quit Hearth',
    ]);
    const items = trayMenu(status());
    expect(enabled(items, 'open-app')).toBe(true);
    expect(enabled(items, 'show-lan-qr')).toBe(true);
    expect(find(items, 'toggle-open-at-login')).toMatchObject({ type: 'checkbox', checked: false });
  });

  it('disables the windows and the QR code while the server starts, and shows unknown status', () => {
    const items = trayMenu(status({ server: { state: 'starting', port: null, urls: [], error: null }, statuses: null }));
    expect(enabled(items, 'open-app')).toBe(false);
    expect(enabled(items, 'open-admin')).toBe(false);
    expect(find(items, 'show-lan-qr')).toMatchObject({ label: 'On phones: no network address yet', enabled: false });
    expect(find(items, 'server')).toMatchObject({ label: 'Hearth is starting…' });
    expect(find(items, 'archives')).toMatchObject({ label: 'Archive server: unknown' });
    expect(find(items, 'model-runtime')).toMatchObject({ label: 'Model runtime: unknown' });
    expect(enabled(items, 'change-data-folder')).toBe(false);
    expect(find(items, 'restart-server')).toBeUndefined();
    expect(enabled(items, 'quit')).toBe(true);
  });

  it('offers a restart after the server failed', () => {
    const items = trayMenu(status({ server: { state: 'failed', port: null, urls: [], error: 'exit code 2' }, statuses: null }));
    expect(find(items, 'server')).toMatchObject({ label: 'Hearth could not start (see the logs)' });
    expect(enabled(items, 'restart-server')).toBe(true);
    expect(enabled(items, 'open-logs')).toBe(true);
  });

  it('says when the server is restarting after a crash', () => {
    const items = trayMenu(status({ server: { state: 'restarting', port: null, urls: [], error: 'exit 1' } }));
    expect(find(items, 'server')).toMatchObject({ label: 'Hearth stopped unexpectedly; restarting…' });
    expect(find(items, 'archives')).toMatchObject({ label: 'Archive server: unknown' });
  });

  it.each([
    [{ kiwixInstalled: false, kiwixState: 'idle', kiwixError: null, installedCount: 0 }, 'Archive server: not installed'],
    [{ kiwixInstalled: true, kiwixState: 'idle', kiwixError: null, installedCount: 0 }, 'Archive server: no archives yet'],
    [{ kiwixInstalled: true, kiwixState: 'idle', kiwixError: null, installedCount: 1 }, 'Archive server: idle, 1 archive'],
    [{ kiwixInstalled: true, kiwixState: 'starting', kiwixError: null, installedCount: 2 }, 'Archive server: starting…'],
    [
      { kiwixInstalled: true, kiwixState: 'failed', kiwixError: 'kiwix-serve exited with code 1 while starting: could not open the library file', installedCount: 2 },
      'Archive server: failed (kiwix-serve exited with code 1 while starting: could not op…)',
    ],
  ])('archive line for %o', (value, label) => {
    const items = trayMenu(status({ statuses: { ...okStatuses, archives: { kind: 'ok', value } } }));
    expect(find(items, 'archives')).toMatchObject({ label });
  });

  it('asks to sign in when the archive status needs a session, and says why a reading failed', () => {
    const items = trayMenu(status({ statuses: { archives: { kind: 'signed-out' }, modelRuntime: { kind: 'unavailable', reason: 'This operation was aborted' } } }));
    expect(find(items, 'archives')).toMatchObject({ label: 'Archive server: sign in to Hearth to see' });
    expect(find(items, 'model-runtime')).toMatchObject({ label: 'Model runtime: unknown (This operation was aborted)' });
  });

  it.each([
    [{ installed: true, running: false }, 'Model runtime: installed, not running'],
    [{ installed: false, running: false }, 'Model runtime: not installed'],
    [{ installed: true, running: true, version: null, models: [{ name: 'a' }] }, 'Model runtime: running (Ollama, 1 model)'],
  ])('model runtime line for %o', (value, label) => {
    const items = trayMenu(status({ statuses: { ...okStatuses, modelRuntime: { kind: 'ok', value } } }));
    expect(find(items, 'model-runtime')).toMatchObject({ label });
  });

  it('shows the move progress and locks the windows and a second move while the data folder moves', () => {
    const items = trayMenu(status({ server: { state: 'stopped', port: null, urls: [], error: null }, dataMove: 0.426 }));
    expect(find(items, 'data-move')).toMatchObject({ label: 'Moving the data folder… 42%' });
    expect(enabled(items, 'change-data-folder')).toBe(false);
    expect(enabled(items, 'open-app')).toBe(false);
    expect(enabled(items, 'restart-server')).toBe(false);
  });

  it('leaves out Start at login where it is not supported (development runs) and ticks it when on', () => {
    expect(find(trayMenu(status({ openAtLogin: { supported: false, enabled: false } })), 'toggle-open-at-login')).toBeUndefined();
    expect(find(trayMenu(status({ openAtLogin: { supported: true, enabled: true } })), 'toggle-open-at-login')).toMatchObject({ checked: true });
  });

  it('puts the LAN address in the tooltip', () => {
    expect(trayTooltip(status())).toBe('Hearth: http://192.168.1.20:8787');
    expect(trayTooltip(status({ server: { state: 'starting', port: null, urls: [], error: null } }))).toBe('Hearth: is starting…');
  });
});
