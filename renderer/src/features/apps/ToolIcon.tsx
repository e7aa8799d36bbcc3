// A tool's icon. The server sends an emoji (or an icon name); the tools Hearth knows get the web
// app's own line icons so they match the navigation, and emoji are the fallback for the rest.
import type { ReactElement } from 'react';
import { Icon, type IconName } from '../../ui/icons';

const TOOL_ICONS: Readonly<Record<string, IconName>> = {
  reader: 'bookmark',
  library: 'book',
  archive_search: 'search',
  // Home widgets of areas that are pages rather than apps
  chat: 'chat',
  media: 'play',
  inventory: 'box',
  images: 'image',
  downloads: 'download',
};

const toolIconName = (toolId: string): IconName | null => (Object.hasOwn(TOOL_ICONS, toolId) ? (TOOL_ICONS[toolId] ?? null) : null);

export function ToolIcon({ toolId, icon, size = 24 }: { toolId: string; icon?: string; size?: number }): ReactElement {
  const name = toolIconName(toolId);
  if (name) return <Icon name={name} size={size} />;
  return (
    <span className="tool-emoji" aria-hidden="true">
      {icon || '•'}
    </span>
  );
}
