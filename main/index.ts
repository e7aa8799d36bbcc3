// Electron main: one instance per user, the server in a utilityProcess (server-host.ts), the tray,
// the windows, the data folder and a clean quit. Closing a window keeps the server running for the
// rest of the house; Quit in the tray stops the server (which stops its sidecars) and then exits.
// Command-line switches, mainly for tests: --data-dir=DIR --port=N --user-data-dir=DIR --hidden.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { app, dialog, session, shell, utilityProcess } from 'electron';
import { guardWebContents, Windows } from './admin-window.js';
import { moveDataFolder, planMove, resolveMoveTarget } from './data-folder.js';
import { registerIpc } from './ipc.js';
import { RotatingLog } from './log-file.js';
import { createLoginItem, HIDDEN_SWITCH, type LoginItem } from './login-item.js';
import { phoneUrl, type TrayStatus } from './menu.js';
import { resolvePaths, trayIconFile } from './paths.js';
import { isTrustedSender } from './security.js';
import { ServerHost, type ServerSnapshot, type ServerStartError } from './server-host.js';
import { readSettings, writeSettings } from './settings.js';
import { fetchStatuses, STATUS_TIMEOUT_MS, type ServerStatuses } from './status.js';
import { HearthTray } from './tray.js';

const STATUS_POLL_MS = 15_000;

const { values: flags } = parseArgs({
  args: process.argv.slice(1),
  strict: false,
  allowPositionals: true,
  options: {
    'data-dir': { type: 'string' },
    port: { type: 'string' },
    'user-data-dir': { type: 'string' },
    hidden: { type: 'boolean' },
  },
});
const flag = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);

const platform = process.platform;
const paths = resolvePaths({
  isPackaged: app.isPackaged,
  appPath: app.getAppPath(),
  resourcesPath: process.resourcesPath,
  appDataDir: app.getPath('appData'),
  platform,
  arch: process.arch,
});
// Electron's own profile stays out of the data folder (which can move); the lock below is per profile
app.setName('Hearth');
app.setPath('userData', path.resolve(flag('user-data-dir') ?? paths.desktopDir));
app.setAppLogsPath();
app.enableSandbox();
if (platform === 'win32') app.setAppUserModelId('app.hearth.household');

if (!app.requestSingleInstanceLock()) {
  // the running Hearth gets 'second-instance' and shows its window
  app.quit();
} else {
  run();
}

function run(): void {
  const settingsFile = path.join(app.getPath('userData'), 'settings.json');
  const settings = readSettings(settingsFile);
  let dataDir = path.resolve(flag('data-dir') ?? settings.dataDir ?? paths.defaultDataDir);
  const portFlag = flag('port');
  const port = portFlag !== undefined ? Number(portFlag) : settings.port;
  const log = new RotatingLog(path.join(app.getPath('logs'), 'server.log'));

  let tray: HearthTray | null = null;
  let statuses: ServerStatuses | null = null;
  let dataMove: number | null = null;
  let quitting = false;
  let stopped = false;
  let polling = false;

  const host = new ServerHost({
    fork: (entry, args) => utilityProcess.fork(entry, args, { stdio: 'pipe', serviceName: 'Hearth server' }),
    entry: paths.serverEntry,
    args: () => ['--data-dir', dataDir, '--resources-dir', paths.resourcesDir, ...(port !== null && Number.isInteger(port) ? ['--port', String(port)] : [])],
    log,
    onChange: (s) => {
      if (s.state !== 'running') statuses = null;
      refreshTray();
      if (s.state === 'running') void pollStatuses();
    },
    onGiveUp: (err) => void showStartError(err),
  });

  // the server listens on all interfaces by default; this computer talks to it over loopback
  const origin = (): string | null => {
    const s = host.snapshot;
    return s.state === 'running' && s.port !== null ? `http://127.0.0.1:${s.port}` : null;
  };

  const windows = new Windows({ preload: paths.preload, icon: path.join(paths.iconsDir, 'icon.png'), origin });

  const loginItem: LoginItem = createLoginItem({
    api: app,
    platform,
    isPackaged: app.isPackaged,
    autostartDir: path.join(app.getPath('appData'), 'autostart'),
    // an AppImage runs from a temporary mount; the AppImage runtime says where the file itself is
    executable: process.env.APPIMAGE ?? app.getPath('exe'),
  });

  function trayStatus(): TrayStatus {
    const s: ServerSnapshot = host.snapshot;
    return {
      server: s,
      statuses,
      openAtLogin: { supported: loginItem.supported, enabled: loginItem.supported && loginItem.isEnabled() },
      dataMove,
    };
  }

  function refreshTray(): void {
    tray?.update(trayStatus());
  }

  async function pollStatuses(): Promise<void> {
    const base = origin();
    if (!base || polling) return;
    polling = true;
    try {
      // the window's session cookie lets the tray read the signed-in status routes
      statuses = await fetchStatuses(base, (url) => session.defaultSession.fetch(url, { credentials: 'include', signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) }));
    } finally {
      polling = false;
    }
    refreshTray();
  }

  async function showStartError(err: ServerStartError): Promise<void> {
    if (quitting) return;
    const { response } = await dialog.showMessageBox({
      type: 'error',
      title: 'Hearth could not start',
      message: err.reason,
      detail: `The log is in ${err.logFile}${err.tail.length ? `\n\nLast lines:\n${err.tail.slice(-8).join('\n')}` : ''}`,
      buttons: ['Open the log', 'Close'],
      defaultId: 0,
      cancelId: 1,
    });
    if (response === 0) shell.showItemInFolder(err.logFile);
  }

  async function startServer(openWindow: boolean): Promise<void> {
    try {
      await host.start();
      if (openWindow) windows.openApp();
    } catch (err) {
      await showStartError(err as ServerStartError);
    }
  }

  async function changeDataFolder(): Promise<void> {
    const picked = await dialog.showOpenDialog({
      title: "Choose a new folder for Hearth's data",
      defaultPath: path.dirname(dataDir),
      properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
    });
    const chosen = picked.filePaths[0];
    if (picked.canceled || !chosen) return;
    const check = await planMove(dataDir, await resolveMoveTarget(chosen));
    if (!check.ok) {
      await dialog.showMessageBox({ type: 'warning', message: 'Hearth cannot move its data there', detail: check.problem });
      return;
    }
    const { plan } = check;
    const { response } = await dialog.showMessageBox({
      type: 'question',
      message: `Move Hearth's data to ${plan.target}?`,
      detail: `Hearth stops while ${(plan.sizeBytes / 1024 ** 3).toFixed(1)} GB ${plan.method === 'rename' ? 'is moved' : 'is copied'}; devices in the house cannot use it until it is done.`,
      buttons: ['Move', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
    });
    if (response !== 0) return;

    dataMove = 0;
    windows.closeAll();
    refreshTray();
    await host.stop();
    let moved = false;
    try {
      await moveDataFolder(plan, (fraction) => {
        // progress arrives per 64 KB chunk; the tray and taskbar change per whole percent
        if (Math.floor(fraction * 100) === Math.floor((dataMove ?? 0) * 100) && fraction < 1) return;
        dataMove = fraction;
        windows.setProgress(fraction);
        refreshTray();
      });
      dataDir = plan.target;
      writeSettings(settingsFile, { ...readSettings(settingsFile), dataDir });
      moved = true;
    } catch (err) {
      dialog.showErrorBox('Moving the data folder failed', `${(err as Error).message}\n\nThe data is still in ${dataDir}.`);
    } finally {
      dataMove = null;
      windows.setProgress(null);
    }
    await startServer(false);
    if (moved) await dialog.showMessageBox({ type: 'info', message: `Hearth's data is now in ${dataDir}.` });
  }

  app.on('second-instance', () => windows.focus());
  app.on('activate', () => windows.focus());
  // closing every window leaves Hearth in the tray, serving the house
  app.on('window-all-closed', () => {});
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, origin));

  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    void host.stop().finally(() => {
      stopped = true;
      tray?.destroy();
      log.close();
      app.quit();
    });
  });

  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback, details) => callback(isTrustedSender(details.requestingUrl, origin())));
    registerIpc(
      {
        info: () => ({ version: app.getVersion(), platform, lanUrls: host.snapshot.urls }),
        showLanQr: () => windows.showQr(host.snapshot.urls),
        openDataFolder: async () => void (await shell.openPath(dataDir)),
        openLogs: async () => void (await shell.openPath(path.dirname(log.file))),
      },
      (url) => isTrustedSender(url, origin()),
    );
    tray = new HearthTray(
      trayIconFile(paths.iconsDir, platform),
      {
        'open-app': () => void windows.openApp(),
        'open-admin': () => void windows.openAdmin(),
        'show-lan-qr': () => void windows.showQr(host.snapshot.urls.map(phoneUrl)),
        'toggle-open-at-login': () => {
          loginItem.setEnabled(!loginItem.isEnabled());
          refreshTray();
        },
        'open-data-folder': () => void shell.openPath(dataDir),
        'change-data-folder': () => void changeDataFolder(),
        'open-logs': () => void shell.openPath(path.dirname(log.file)),
        'restart-server': () => void startServer(false),
        quit: () => app.quit(),
      },
      platform,
    );
    refreshTray();
    setInterval(() => void pollStatuses(), STATUS_POLL_MS).unref();

    // for the Electron smoke test and support: what the desktop is doing, read-only
    Object.assign(globalThis, { hearthDesktopState: () => ({ tray: tray !== null, server: host.snapshot, dataDir }) });

    const openedAtLogin = flags.hidden === true || process.argv.includes(HIDDEN_SWITCH) || (platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
    void startServer(!openedAtLogin);
  });
}
