// Electron main: single-instance lock, the server in a utilityProcess, one window on the web app.
// Tray, admin window, data-folder moves and installers come with the desktop-host work (issue #7).
import path from 'node:path';
import { app, BrowserWindow, dialog } from 'electron';
import { startServerProcess, type RunningServer } from './server-host.js';

let server: RunningServer | null = null;
let window: BrowserWindow | null = null;

function openWindow(url: string): void {
  if (window) {
    if (window.isMinimized()) window.restore();
    window.focus();
    return;
  }
  window = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Hearth',
    webPreferences: { contextIsolation: true, nodeIntegration: false, sandbox: true },
  });
  window.webContents.on('will-navigate', (event, target) => {
    if (new URL(target).origin !== new URL(url).origin) event.preventDefault();
  });
  window.on('closed', () => {
    window = null;
  });
  void window.loadURL(url);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (server) openWindow(`http://127.0.0.1:${server.port}`);
  });
  app.on('window-all-closed', () => {
    // the server keeps running for the rest of the house; quit from the tray (issue #7)
  });
  app.on('before-quit', () => {
    void server?.stop();
  });
  void app.whenReady().then(async () => {
    const root = app.getAppPath();
    try {
      server = await startServerProcess({
        entry: path.join(root, 'dist', 'server', 'entry.js'),
        env: {
          DATA_DIR: path.join(app.getPath('appData'), 'Hearth'),
          PORT: '8787',
        },
        onLog: (line) => process.stdout.write(line),
      });
      openWindow(`http://127.0.0.1:${server.port}`);
    } catch (err) {
      dialog.showErrorBox('Hearth could not start', (err as Error).message);
      app.quit();
    }
  });
}
