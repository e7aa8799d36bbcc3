// The App Store's listing: the household's tools merged with the built-in catalog apps (the shell's
// own pages that are not tools). Built-ins always report enabled and builtIn, and cannot be removed
// (spec). A tool's page route comes from the server's fixed tool-id -> route table.
import type { ShellPage } from '../../app/shell-pages';
import type { IconName } from '../../ui/icons';
import type { Tool } from './tools';

export const APP_STORE_HREF = '/apps';

export interface StoreEntry {
  id: string;
  name: string;
  description: string;
  /** Tools carry the server's icon field (ToolIcon draws the bundled icon for the tool, never the emoji); built-ins use the shell's icon. */
  icon: { toolId: string; emoji: string } | { icon: IconName };
  /** App = has a page; Extension = chat-only (the tool's `offline` flag, inverted on purpose). */
  kind: 'app' | 'extension';
  builtIn: boolean;
  enabled: boolean;
  route: string | null;
  category: string;
  tool: Tool | null;
}

const BUILT_IN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  home: 'Your home screen: the widgets you choose, in the order you like.',
  members: 'Add the people in your household, change PINs and roles, and look after their home screens.',
  downloads: 'Everything Hearth is downloading, with progress.',
  features: 'Install the models and components Hearth runs on this computer.',
  archives: 'Download and look after the offline archives in the Library.',
  images: 'Create pictures from words and tidy up photos, privately on this computer.',
};

export const BUILT_IN_CATEGORY = 'Built into Hearth';

export function toolEntry(t: Tool): StoreEntry {
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    icon: { toolId: t.id, emoji: t.icon },
    kind: t.offline ? 'extension' : 'app',
    builtIn: false,
    enabled: t.enabled,
    route: t.route,
    category: t.category || 'Other',
    tool: t,
  };
}

/** Built-in apps: navigable pages that belong to no tool (the store itself left out). */
export function builtInEntries(pages: readonly Pick<ShellPage, 'id' | 'path' | 'label' | 'icon' | 'toolId' | 'inNav'>[], selfId: string): StoreEntry[] {
  return pages
    .filter((p) => !p.toolId && p.inNav !== false && p.id !== selfId)
    .map((p) => ({
      id: p.id,
      name: p.label,
      description: BUILT_IN_DESCRIPTIONS[p.id] ?? '',
      icon: { icon: p.icon },
      kind: 'app',
      builtIn: true,
      enabled: true,
      route: `/${p.path.replace(/\/\*$/, '')}`,
      category: BUILT_IN_CATEGORY,
      tool: null,
    }));
}

/** Tools grouped by category (categories and names alphabetical), then the built-ins. */
export function groupEntries(tools: readonly Tool[], builtIns: readonly StoreEntry[]): Array<{ category: string; entries: StoreEntry[] }> {
  const groups = new Map<string, StoreEntry[]>();
  for (const e of tools.map(toolEntry).sort((a, b) => a.name.localeCompare(b.name))) {
    groups.set(e.category, [...(groups.get(e.category) ?? []), e]);
  }
  const out = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([category, entries]) => ({ category, entries }));
  if (builtIns.length) out.push({ category: BUILT_IN_CATEGORY, entries: [...builtIns] });
  return out;
}
