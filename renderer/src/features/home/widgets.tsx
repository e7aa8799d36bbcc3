// Home widgets, keyed by tool id, and the read-only canvas that lays them out. A column whose tool
// is switched off, or whose tool id has no widget here, renders nothing (spec: widgets of disabled
// tools do not render); a row left with nothing to show is skipped. Only widgets that do something
// ship: the weather, joke and scores header items and the archive search card (a chat extension
// with nothing to do on Home) are gone, and a saved layout that still names them just skips them.
// A widget whose tool cannot work yet (the Library with no archive) says why instead of pretending.
import { useId, type ReactElement, type ReactNode } from 'react';
import { Link } from 'react-router';
import { itemTitle, readerItemHref } from '../reader/types';
import { NotReadyNote } from '../apps/NotReadyNote';
import { ToolIcon } from '../apps/ToolIcon';
import { useTools, type Tool } from '../apps/tools';
import { useUser } from '../../app/session';
import type { HomeColumn, HomeLayout, HomeRow } from './layout-edit';
import { useUnreadReaderItems } from './queries';

interface WidgetProps {
  tool: Tool | undefined;
  span: 1 | 2;
}

export interface WidgetDef {
  toolId: string;
  /** Used until the tools list has loaded (optimistic display). */
  name: string;
  icon: string;
  Component: (props: WidgetProps) => ReactElement;
}

function ToolCard({
  tool,
  def,
  text,
  link,
  children,
}: {
  tool: Tool | undefined;
  def: Pick<WidgetDef, 'name' | 'icon' | 'toolId'>;
  text: string;
  link?: { to: string; label: string } | null;
  children?: ReactNode;
}): ReactElement {
  const titleId = useId();
  const isAdmin = useUser().role === 'admin';
  const name = tool?.name ?? def.name;
  return (
    <article className="widget__card" aria-labelledby={titleId}>
      <div className="widget__head">
        <span className="widget__icon" aria-hidden="true">
          <ToolIcon toolId={def.toolId} icon={tool?.icon ?? def.icon} />
        </span>
        <h2 id={titleId} className="widget__title">
          {name}
        </h2>
      </div>
      <p className="widget__text">{text}</p>
      {tool ? <NotReadyNote availability={tool} forAdmin={isAdmin} /> : null}
      {children}
      {link ? (
        <Link className="widget__link" to={link.to}>
          {link.label}
        </Link>
      ) : null}
    </article>
  );
}

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
  reader: { toolId: 'reader', name: 'Reader', icon: '📖', Component: ReaderWidget },
  library: { toolId: 'library', name: 'Library', icon: '📚', Component: LibraryWidget },
};

export const widgetFor = (toolId: string): WidgetDef | undefined => (Object.hasOwn(WIDGETS, toolId) ? WIDGETS[toolId] : undefined);

/** The rows and columns that actually render for this enabled set. */
export function visibleRows(layout: HomeLayout, isVisible: (toolId: string) => boolean): Array<{ row: HomeRow; cols: HomeColumn[] }> {
  return layout.canvas
    .map((row) => ({ row, cols: row.cols.filter((c) => widgetFor(c.toolId) && isVisible(c.toolId)) }))
    .filter((r) => r.cols.length > 0);
}

/** The canvas as its owner sees it. Returns null when no widget would show. */
export function HomeCanvas({ layout, label = 'Home widgets' }: { layout: HomeLayout; label?: string }): ReactElement | null {
  const { tools, isVisible } = useTools();
  const rows = visibleRows(layout, isVisible);
  if (rows.length === 0) return null;
  return (
    <div className="canvas" role="list" aria-label={label} data-testid="home-canvas">
      {rows.map(({ row, cols }) => (
        <div key={row.id} className="canvas__row" role="listitem" data-testid="canvas-row">
          {cols.map((c, i) => {
            const def = widgetFor(c.toolId)!;
            return (
              <div key={`${c.toolId}-${i}`} className={`widget widget--span${c.colSpan}`} data-testid={`widget-${c.toolId}`} data-span={c.colSpan}>
                <def.Component tool={tools?.find((t) => t.id === c.toolId)} span={c.colSpan} />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
