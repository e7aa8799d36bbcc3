// Preload for the Hearth windows (sandboxed, context-isolated): exposes the small typed bridge of
// ipc.ts as window.hearthDesktop and nothing else — no raw ipcRenderer. Sandboxed preloads run as
// CommonJS scripts and may only require 'electron', so the channel names are repeated here and
// checked against ipc.ts by the type system.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is a CommonJS script
import electron = require('electron');
import type { HearthDesktopBridge, IpcChannel } from './ipc.js';

const invoke = (channel: IpcChannel) => electron.ipcRenderer.invoke(channel);

const bridge: HearthDesktopBridge = {
  info: () => invoke('hearth:info'),
  showLanQr: () => invoke('hearth:show-lan-qr'),
  openDataFolder: () => invoke('hearth:open-data-folder'),
  openLogs: () => invoke('hearth:open-logs'),
};

electron.contextBridge.exposeInMainWorld('hearthDesktop', bridge);
