// A tool's icon, always from the web app's own line icons (ui/icons) so it matches the navigation
// and shows on every device: the server's icon is an emoji, which a computer without an emoji font
// draws as an empty box. The tools Hearth knows have their icon here; an icon name the set has is
// used as it is; anything else gets the generic apps icon.
import type { ReactElement } from 'react';
import { Icon, isIconName, type IconName } from '../../ui/icons';

const TOOL_ICONS: Readonly<Record<string, IconName>> = {
  reader: 'bookmark',
  reader_search: 'search',
  library: 'book',
  archive_search: 'search',
  inventory: 'box',
  home_inventory: 'box',
  image_gen: 'image',
  // Home widgets of areas that are pages rather than apps
  chat: 'chat',
  media: 'play',
  images: 'image',
  downloads: 'download',
};

export function toolIconName(toolId: string, icon?: string): IconName {
  if (Object.hasOwn(TOOL_ICONS, toolId)) return TOOL_ICONS[toolId]!;
  return icon && isIconName(icon) ? icon : 'apps';
}

export function ToolIcon({ toolId, icon, size = 24 }: { toolId: string; icon?: string; size?: number }): ReactElement {
  return <Icon name={toolIconName(toolId, icon)} size={size} />;
}
