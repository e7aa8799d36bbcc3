// The tray icon: renders menu.ts's items into an Electron menu and routes clicks to the actions
// index.ts provides. Rebuilt whenever the status changes (Electron menus are immutable once shown).
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import { trayMenu, trayTooltip, type TrayAction, type TrayItem, type TrayStatus } from './menu.js';

export type TrayActions = Record<TrayAction, () => void>;

function toMenuItem(item: TrayItem, actions: TrayActions): MenuItemConstructorOptions {
  switch (item.type) {
    case 'separator':
      return { type: 'separator' };
    case 'status':
      return { id: item.id, label: item.label, enabled: false };
    case 'checkbox':
      return { id: item.action, type: 'checkbox', label: item.label, checked: item.checked, enabled: item.enabled, click: () => actions[item.action]() };
    case 'action':
      return { id: item.action, label: item.label, enabled: item.enabled, click: () => actions[item.action]() };
  }
}

export class HearthTray {
  private readonly tray: Tray;
  private last = '';

  constructor(
    iconFile: string,
    private readonly actions: TrayActions,
    platform: NodeJS.Platform,
  ) {
    const icon = nativeImage.createFromPath(iconFile);
    if (platform === 'darwin') icon.setTemplateImage(true);
    this.tray = new Tray(icon);
    // Windows and most Linux panels open the window on a plain click; macOS always shows the menu
    if (platform !== 'darwin') this.tray.on('click', () => actions['open-app']());
  }

  update(status: TrayStatus): void {
    const items = trayMenu(status);
    const key = JSON.stringify(items);
    if (key === this.last) return;
    this.last = key;
    this.tray.setContextMenu(Menu.buildFromTemplate(items.map((i) => toMenuItem(i, this.actions))));
    this.tray.setToolTip(trayTooltip(status));
  }

  destroy(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy();
  }
}
