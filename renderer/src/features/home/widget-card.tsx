// The card every Home widget draws: the area's icon and name, a line of text, the area's own
// "not ready" note when it has one, the widget's content and a link to the area.
import { useId, type ReactElement, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { NotReadyNote, ToolIcon, type Tool } from '../apps';

export interface WidgetProps {
  tool: Tool | undefined;
  span: 1 | 2;
}

export interface WidgetDef {
  /** The widget's id in a saved layout (a column's `toolId`). */
  toolId: string;
  /** The app whose switch shows or hides the widget; null for an area that is always there. */
  tool: string | null;
  /** Shown to admins only (Downloads). */
  adminOnly?: boolean;
  /** Used until the tools list has loaded (optimistic display). */
  name: string;
  icon: string;
  Component: (props: WidgetProps) => ReactElement;
}

export function ToolCard({
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

