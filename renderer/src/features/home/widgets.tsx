// Home widgets, keyed by tool id, and the read-only canvas that lays them out. A column whose tool
// is switched off, or whose tool id has no widget here, renders nothing (spec: widgets of disabled
// tools do not render); a row left with nothing to show is skipped. Only widgets that do something
// ship: the weather, joke and scores header items and the archive search card (a chat extension
// with nothing to do on Home) are gone, and a saved layout that still names them just skips them.
// A widget whose tool cannot work yet (the Library with no archive) says why instead of pretending.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { itemTitle, readerItemHref } from '../reader';
import { useTools } from '../apps';
import { useUser } from '../../app/session';
import { AREA_WIDGETS, ChatWidget, DownloadsWidget, MediaWidget, PicturesWidget, WarrantiesWidget } from './area-widgets';
import { BriefingWidget, followsSection, NewsWidget, OnThisDayWidget, ScoresWidget, TODAY_DEFS, WeatherWidget } from './today-widgets';
import { SMART_HOME_DEF, SmartHomeWidget } from './smart-home-widget';
import { ToolCard, type WidgetDef, type WidgetProps } from './widget-card';
import type { HomeColumn, HomeLayout, HomeRow } from './layout-edit';
import { useUnreadReaderItems } from './queries';

/** The newest unread items in the member's Reader (up to three), linking to each. */
function ReaderWidget({ tool }: WidgetProps): ReactElement {
  const def = WIDGETS.reader!;
  const unread = useUnreadReaderItems();
  const data = unread.data;
  const text = !data
    ? unread.error
      ? 'Articles you save to read later, even offline.'
      : 'Looking for unread articles…'
    : data.total === 0
      ? 'Nothing unread. Save articles here to read later, even offline.'
      : data.total === 1
        ? '1 unread item.'
        : `${data.total} unread items.`;
  return (
    <ToolCard tool={tool} def={def} text={text} link={{ to: tool?.route ?? '/reader', label: `Open ${tool?.name ?? def.name}` }}>
      {data && data.items.length ? (
        <ul className="widget__items">
          {data.items.map((i) => (
            <li key={i.id}>
              <Link to={readerItemHref(i.id)}>{itemTitle(i)}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </ToolCard>
  );
}

function LibraryWidget({ tool }: WidgetProps): ReactElement {
  const def = WIDGETS.library!;
  return (
    <ToolCard
      tool={tool}
      def={def}
      text="Encyclopedias, guides and books that work without the internet."
      link={{ to: tool?.route ?? '/library', label: `Open ${tool?.name ?? def.name}` }}
    />
  );
}

export const WIDGETS: Readonly<Record<string, WidgetDef>> = {
  reader: { toolId: 'reader', tool: 'reader', name: 'Reader', icon: '📖', Component: ReaderWidget },
  library: { toolId: 'library', tool: 'library', name: 'Library', icon: '📚', Component: LibraryWidget },
  chat: { ...AREA_WIDGETS.chat, tool: null, Component: ChatWidget },
  media: { ...AREA_WIDGETS.media, tool: null, Component: MediaWidget },
  inventory: { ...AREA_WIDGETS.inventory, tool: 'inventory', Component: WarrantiesWidget },
  images: { ...AREA_WIDGETS.images, tool: null, Component: PicturesWidget },
  downloads: { ...AREA_WIDGETS.downloads, tool: null, adminOnly: true, Component: DownloadsWidget },
  'smart-home': { ...SMART_HOME_DEF, tool: null, Component: SmartHomeWidget },
  weather: { ...TODAY_DEFS.weather, tool: 'today', Component: followsSection('weather', WeatherWidget) },
  news: { ...TODAY_DEFS.news, tool: 'today', Component: followsSection('news', NewsWidget) },
  'on-this-day': { ...TODAY_DEFS['on-this-day'], tool: 'today', Component: followsSection('onThisDay', OnThisDayWidget) },
  scores: { ...TODAY_DEFS.scores, tool: 'today', Component: followsSection('sports', ScoresWidget) },
  briefing: { ...TODAY_DEFS.briefing, tool: 'today', Component: BriefingWidget },
};

/** Whether a widget may show for this person: its app switched on (when it is one), admins' widgets to admins. */
export function widgetShows(def: WidgetDef, isVisible: (toolId: string) => boolean, isAdmin: boolean): boolean {
  return (def.tool === null || isVisible(def.tool)) && (!def.adminOnly || isAdmin);
}

export const widgetFor = (toolId: string): WidgetDef | undefined => (Object.hasOwn(WIDGETS, toolId) ? WIDGETS[toolId] : undefined);

/** The rows and columns that actually render for this enabled set. */
export function visibleRows(layout: HomeLayout, isVisible: (toolId: string) => boolean, isAdmin = false): Array<{ row: HomeRow; cols: HomeColumn[] }> {
  return layout.canvas
    .map((row) => ({ row, cols: row.cols.filter((c) => { const def = widgetFor(c.toolId); return def !== undefined && widgetShows(def, isVisible, isAdmin); }) }))
    .filter((r) => r.cols.length > 0);
}

/** The canvas as its owner sees it. Returns null when no widget would show. */
export function HomeCanvas({ layout, label = 'Home widgets' }: { layout: HomeLayout; label?: string }): ReactElement | null {
  const { tools, isVisible } = useTools();
  const isAdmin = useUser().role === 'admin';
  const rows = visibleRows(layout, isVisible, isAdmin);
  if (rows.length === 0) return null;
  return (
    <div className="canvas" role="list" aria-label={label} data-testid="home-canvas">
      {rows.map(({ row, cols }) => (
        <div key={row.id} className="canvas__row" role="listitem" data-testid="canvas-row">
          {cols.map((c, i) => {
            const def = widgetFor(c.toolId)!;
            return (
              <div key={`${c.toolId}-${i}`} className={`widget widget--span${c.colSpan}`} data-testid={`widget-${c.toolId}`} data-span={c.colSpan}>
                <def.Component tool={def.tool ? tools?.find((t) => t.id === def.tool) : undefined} span={c.colSpan} />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
