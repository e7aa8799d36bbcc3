// The one list of IPC channels between the Hearth windows and the main process, the bridge's type,
// and the handlers' registration. The bridge is small on purpose: pages served by the household
// server (which also proxies archive content) must not gain anything beyond these harmless actions.
import { ipcMain, type IpcMainInvokeEvent } from 'electron';

export const IPC_CHANNELS = {
  info: 'hearth:info',
  showLanQr: 'hearth:show-lan-qr',
  openDataFolder: 'hearth:open-data-folder',
  openLogs: 'hearth:open-logs',
} as const;
export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS];

export interface DesktopInfo {
  version: string;
  platform: NodeJS.Platform;
  /** The addresses phones and tablets use. */
  lanUrls: string[];
}

/** What preload exposes as `window.hearthDesktop`. */
export interface HearthDesktopBridge {
  info(): Promise<DesktopInfo>;
  showLanQr(): Promise<void>;
  openDataFolder(): Promise<void>;
  openLogs(): Promise<void>;
}

export type IpcHandlers = { [K in keyof HearthDesktopBridge]: () => ReturnType<HearthDesktopBridge[K]> | Awaited<ReturnType<HearthDesktopBridge[K]>> };

/** Registers every handler; calls from frames outside the server's origin are refused. Returns an unregister function. */
export function registerIpc(handlers: IpcHandlers, isTrusted: (senderUrl: string | undefined) => boolean): () => void {
  const channels = Object.entries(IPC_CHANNELS) as Array<[keyof typeof IPC_CHANNELS, IpcChannel]>;
  for (const [name, channel] of channels) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent) => {
      if (!isTrusted(event.senderFrame?.url)) throw new Error('not allowed');
      return handlers[name]();
    });
  }
  return () => {
    for (const [, channel] of channels) ipcMain.removeHandler(channel);
  };
}
