// The desktop's windows: the web app ("Open Hearth"), the admin pages ("Admin") and the QR code
// for phones. Every window is sandboxed and context-isolated with no Node, and every web contents
// in the app is held to the server's own origin (security.ts decides; this file enforces).
import { BrowserWindow, shell, type WebContents } from 'electron';
import QRCode from 'qrcode';
import { navigationDecision } from './security.js';

/** Where "Admin" opens: the Features page, the admin's hub for what this computer runs. */
export const ADMIN_PATH = '/features';

export interface WindowsOptions {
  preload: string;
  icon: string;
  /** The server's origin (http://127.0.0.1:port) while it runs, else null. */
  origin: () => string | null;
}

/** Applied to every web contents the app creates (windows, popups): navigation lock, no webviews. */
export function guardWebContents(contents: WebContents, origin: () => string | null): void {
  const onNavigate = (event: { preventDefault(): void }, url: string) => {
    const decision = navigationDecision(url, origin());
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'open-external') void shell.openExternal(url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = navigationDecision(url, origin());
    if (decision === 'open-external') void shell.openExternal(url);
    // same-origin pop-ups (an archive opened in a new tab) become app windows with the same lock-down
    return decision === 'allow' ? { action: 'allow', overrideBrowserWindowOptions: { autoHideMenuBar: true } } : { action: 'deny' };
  });
}

export class Windows {
  private app: BrowserWindow | null = null;
  private admin: BrowserWindow | null = null;
  private qr: BrowserWindow | null = null;

  constructor(private readonly opts: WindowsOptions) {}

  private secureWindow(title: string, width: number, height: number, preload: boolean): BrowserWindow {
    return new BrowserWindow({
      width,
      height,
      title,
      icon: this.opts.icon,
      show: false,
      autoHideMenuBar: true,
      webPreferences: {
        contextIsolation: true,
        nodeIntegration: false,
        sandbox: true,
        webviewTag: false,
        spellcheck: false,
        ...(preload ? { preload: this.opts.preload } : {}),
      },
    });
  }

  private show(win: BrowserWindow): void {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  private openAt(kind: 'app' | 'admin', pathname: string): BrowserWindow | null {
    const origin = this.opts.origin();
    if (!origin) return null;
    const existing = kind === 'app' ? this.app : this.admin;
    if (existing && !existing.isDestroyed()) {
      this.show(existing);
      return existing;
    }
    const win = kind === 'app' ? this.secureWindow('Hearth', 1180, 800, true) : this.secureWindow('Hearth admin', 1100, 760, true);
    win.once('ready-to-show', () => this.show(win));
    // closing a window only closes the window: the server keeps serving the house from the tray
    win.on('closed', () => {
      if (kind === 'app') this.app = null;
      else this.admin = null;
    });
    if (kind === 'app') this.app = win;
    else this.admin = win;
    void win.loadURL(new URL(pathname, origin).href);
    return win;
  }

  /** Opens (or focuses) the web app. */
  openApp(): BrowserWindow | null {
    return this.openAt('app', '/');
  }

  openAdmin(): BrowserWindow | null {
    return this.openAt('admin', ADMIN_PATH);
  }

  /** Opens (or focuses) whichever Hearth window is open, else the web app: a second launch lands here. */
  focus(): void {
    const open = [this.app, this.admin].find((w) => w && !w.isDestroyed());
    if (open) this.show(open);
    else this.openApp();
  }

  /** A QR code per LAN address, for a phone's camera. The page is local, static and script-free. */
  async showQr(urls: string[]): Promise<void> {
    if (urls.length === 0) return;
    const codes = await Promise.all(urls.slice(0, 3).map(async (url) => ({ url, svg: await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }) })));
    if (this.qr && !this.qr.isDestroyed()) this.qr.close();
    const win = this.secureWindow('Open Hearth on a phone', 380, codes.length > 1 ? 720 : 480, false);
    win.setResizable(true);
    win.once('ready-to-show', () => this.show(win));
    win.on('closed', () => {
      this.qr = null;
    });
    this.qr = win;
    void win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(qrPage(codes))}`);
  }

  /** The data-folder move's progress on the window's taskbar/dock entry; null clears it. */
  setProgress(fraction: number | null): void {
    for (const w of [this.app, this.admin]) if (w && !w.isDestroyed()) w.setProgressBar(fraction ?? -1);
  }

  /** Closes the Hearth windows, e.g. before the server stops for a data-folder move. */
  closeAll(): void {
    for (const w of [this.app, this.admin, this.qr]) if (w && !w.isDestroyed()) w.close();
  }

  get appWindow(): BrowserWindow | null {
    return this.app && !this.app.isDestroyed() ? this.app : null;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function qrPage(codes: Array<{ url: string; svg: string }>): string {
  const blocks = codes.map((c) => `<figure>${c.svg}<figcaption>${escapeHtml(c.url)}</figcaption></figure>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Open Hearth on a phone</title>
<style>
body{font:15px system-ui,sans-serif;margin:0;padding:20px;text-align:center;color:#222;background:#fff}
p{margin:0 0 12px}figure{margin:0 auto 16px;max-width:300px}svg{width:100%;height:auto}
figcaption{font:600 16px ui-monospace,monospace;word-break:break-all;user-select:all}
</style></head><body>
<p>Point the phone's camera at the code, or type the address into its browser. The phone must be on this home network. The page shows how to trust Hearth's certificate once, then opens its secure address.</p>
${blocks}</body></html>`;
}
