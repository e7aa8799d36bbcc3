// "Start at login": Electron's login items on macOS and Windows; on Linux, where Electron has none,
// an XDG autostart entry. Started at login, Hearth comes up in the tray without opening a window.
// Electron's app is passed in (only the two login-item methods), so the Linux file is unit-tested.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const HIDDEN_SWITCH = '--hidden';

interface LoginItemApi {
  getLoginItemSettings(): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

export interface LoginItem {
  readonly supported: boolean;
  isEnabled(): boolean;
  setEnabled(on: boolean): void;
}

/** The desktop entry's Exec value, quoted per the Desktop Entry spec. */
export function linuxAutostartEntry(executable: string): string {
  const quoted = `"${executable.replace(/(["`$\\])/g, '\\$1')}"`;
  return ['[Desktop Entry]', 'Type=Application', 'Name=Hearth', 'Comment=Household server', `Exec=${quoted} ${HIDDEN_SWITCH}`, 'X-GNOME-Autostart-enabled=true', 'Terminal=false', ''].join('\n');
}

export function createLoginItem(opts: {
  api: LoginItemApi;
  platform: NodeJS.Platform;
  /** Development runs start a bare Electron; only an installed app can be a login item. */
  isPackaged: boolean;
  /** Linux: ~/.config/autostart (app.getPath('appData') + /autostart). */
  autostartDir: string;
  /** Linux: what to run, the AppImage file itself for AppImages (its executable lives in a temporary mount). */
  executable: string;
}): LoginItem {
  if (!opts.isPackaged) return { supported: false, isEnabled: () => false, setEnabled: () => {} };
  if (opts.platform === 'linux') {
    const file = path.join(opts.autostartDir, 'hearth.desktop');
    return {
      supported: true,
      isEnabled: () => existsSync(file),
      setEnabled: (on) => {
        if (!on) return rmSync(file, { force: true });
        mkdirSync(opts.autostartDir, { recursive: true });
        writeFileSync(file, linuxAutostartEntry(opts.executable));
      },
    };
  }
  return {
    supported: opts.platform === 'darwin' || opts.platform === 'win32',
    isEnabled: () => opts.api.getLoginItemSettings().openAtLogin,
    // args reach the app on Windows; macOS tells the app through wasOpenedAtLogin instead
    setEnabled: (on) => opts.api.setLoginItemSettings({ openAtLogin: on, args: [HIDDEN_SWITCH] }),
  };
}
