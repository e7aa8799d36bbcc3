// The tray menu as data: a pure function of the desktop's status, so every label and enabled state
// is unit-tested; tray.ts turns the items into an Electron Menu and binds the actions.
import type { ServerSnapshot } from './server-host.js';
import type { ArchivesStatus, ModelRuntimeStatus, Reading, ServerStatuses } from './status.js';

export type TrayAction =
  | 'open-app'
  | 'open-admin'
  | 'show-lan-qr'
  | 'toggle-open-at-login'
  | 'open-data-folder'
  | 'change-data-folder'
  | 'open-logs'
  | 'restart-server'
  | 'quit';

export type TrayItem =
  | { type: 'action'; action: TrayAction; label: string; enabled: boolean }
  | { type: 'checkbox'; action: TrayAction; label: string; checked: boolean; enabled: boolean }
  | { type: 'status'; id: 'server' | 'archives' | 'image-engine' | 'model-runtime' | 'data-move'; label: string }
  | { type: 'separator' };

export interface TrayStatus {
  server: Pick<ServerSnapshot, 'state' | 'port' | 'urls' | 'error'>;
  /** null until the first read after the server became ready. */
  statuses: ServerStatuses | null;
  openAtLogin: { supported: boolean; enabled: boolean };
  /** Progress of a data-folder move, 0–1; null when none runs. */
  dataMove: number | null;
}

const MAX_ERROR_CHARS = 60;

function clip(text: string, max = MAX_ERROR_CHARS): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function serverLine(server: TrayStatus['server']): string {
  switch (server.state) {
    case 'running':
      return `Hearth is running on port ${server.port}`;
    case 'starting':
      return 'Hearth is starting…';
    case 'restarting':
      return 'Hearth stopped unexpectedly; restarting…';
    case 'failed':
      return 'Hearth could not start (see the logs)';
    case 'stopped':
      return 'Hearth is stopped';
  }
}

function unknownLine(name: string, reading: Reading<unknown> | null, running: boolean): string | null {
  if (!running || reading === null) return `${name}: unknown`;
  if (reading.kind === 'signed-out') return `${name}: sign in to Hearth to see`;
  if (reading.kind === 'unavailable') return `${name}: unknown (${clip(reading.reason, 40)})`;
  return null;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function archiveLine(reading: Reading<ArchivesStatus> | null, running: boolean): string {
  const unknown = unknownLine('Archive server', reading, running);
  if (unknown !== null || reading?.kind !== 'ok') return unknown ?? 'Archive server: unknown';
  const s = reading.value;
  if (!s.kiwixInstalled) return 'Archive server: not installed';
  const archives = count(s.installedCount, 'archive');
  switch (s.kiwixState) {
    case 'ready':
      return `Archive server: running, ${archives}`;
    case 'starting':
      return 'Archive server: starting…';
    case 'failed':
      return `Archive server: failed${s.kiwixError ? ` (${clip(s.kiwixError)})` : ''}`;
    case 'idle':
      return s.installedCount === 0 ? 'Archive server: no archives yet' : `Archive server: idle, ${archives}`;
    default:
      return `Archive server: ${clip(s.kiwixState, 20)}`;
  }
}

export function modelRuntimeLine(reading: Reading<ModelRuntimeStatus> | null, running: boolean): string {
  const unknown = unknownLine('Model runtime', reading, running);
  if (unknown !== null || reading?.kind !== 'ok') return unknown ?? 'Model runtime: unknown';
  const s = reading.value;
  if (s.running) {
    const version = s.version ? ` ${s.version}` : '';
    return `Model runtime: running (Ollama${version}, ${count(s.models?.length ?? 0, 'model')})`;
  }
  return s.installed ? 'Model runtime: installed, not running' : 'Model runtime: not installed';
}

/** The server has no image-engine status API yet, so the line says what is true today. */
export function imageEngineLine(): string {
  return 'Image engine: not set up';
}

/**
 * Where a phone starts: the Trust page, which walks it through trusting the household certificate
 * and then opens the secure address (issue 31). The admin window keeps using 127.0.0.1.
 */
export function phoneUrl(lanUrl: string): string {
  return `${lanUrl.replace(/\/+$/, '')}/trust`;
}

export function trayMenu(status: TrayStatus): TrayItem[] {
  const running = status.server.state === 'running';
  const moving = status.dataMove !== null;
  const lan = running ? status.server.urls[0] : undefined;
  const items: TrayItem[] = [
    { type: 'action', action: 'open-app', label: 'Open Hearth', enabled: running && !moving },
    { type: 'action', action: 'open-admin', label: 'Admin', enabled: running && !moving },
    { type: 'separator' },
    { type: 'status', id: 'server', label: serverLine(status.server) },
    lan
      ? { type: 'action', action: 'show-lan-qr', label: `On phones: ${phoneUrl(lan)} (QR code)`, enabled: true }
      : { type: 'action', action: 'show-lan-qr', label: 'On phones: no network address yet', enabled: false },
    { type: 'separator' },
    { type: 'status', id: 'archives', label: archiveLine(status.statuses?.archives ?? null, running) },
    { type: 'status', id: 'image-engine', label: imageEngineLine() },
    { type: 'status', id: 'model-runtime', label: modelRuntimeLine(status.statuses?.modelRuntime ?? null, running) },
    { type: 'separator' },
  ];
  if (status.openAtLogin.supported) {
    items.push({ type: 'checkbox', action: 'toggle-open-at-login', label: 'Start at login', checked: status.openAtLogin.enabled, enabled: true });
  }
  if (moving) items.push({ type: 'status', id: 'data-move', label: `Moving the data folder… ${Math.floor((status.dataMove ?? 0) * 100)}%` });
  items.push(
    { type: 'action', action: 'open-data-folder', label: 'Open data folder', enabled: true },
    { type: 'action', action: 'change-data-folder', label: 'Change data folder…', enabled: !moving && status.server.state !== 'starting' },
    { type: 'action', action: 'open-logs', label: 'Open logs', enabled: true },
  );
  if (status.server.state === 'failed' || status.server.state === 'stopped') {
    items.push({ type: 'action', action: 'restart-server', label: 'Start the server again', enabled: !moving });
  }
  items.push({ type: 'separator' }, { type: 'action', action: 'quit', label: 'Quit Hearth', enabled: true });
  return items;
}

/** The tray icon's hover text. */
export function trayTooltip(status: TrayStatus): string {
  const lan = status.server.state === 'running' ? status.server.urls[0] : undefined;
  return lan ? `Hearth: ${lan}` : `Hearth: ${serverLine(status.server).replace(/^Hearth /, '')}`;
}
