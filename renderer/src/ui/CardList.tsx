// CardList — a list of cards shown as a grid of tiles or as one column of rows, and the switch
// between the two. The page keeps the choice (useStoredChoice) and draws each card.
//   <CardList view={view} className="inv-list" label="Devices" testId="device-list">{cards}</CardList>
//   <CardLayoutSwitch label="Show as" value={view} onChange={setView} />
// A page sets its own sizes on its class: --card-list-min (a tile's narrowest width), --card-list-gap
// (between rows), --card-list-grid-gap (between tiles). Styled by its own CSS, imported here.
import type { ReactElement, ReactNode } from 'react';
import { Icon } from './icons';
import { SegmentedControl } from './SegmentedControl';
import './CardList.css';

export type CardLayout = 'grid' | 'list';

export interface CardListProps {
  view: CardLayout;
  children: ReactNode;
  /** The page's class for the list (its sizes, its cards' looks per layout). */
  className?: string;
  label?: string;
  testId?: string;
}

export function CardList({ view, children, className, label, testId }: CardListProps): ReactElement {
  return (
    <ul className={`card-list card-list--${view}${className ? ` ${className}` : ''}`} aria-label={label} data-testid={testId}>
      {children}
    </ul>
  );
}

export interface CardLayoutSwitchProps {
  /** The group's accessible name. */
  label: string;
  value: CardLayout;
  onChange: (view: CardLayout) => void;
  /** The order of the two buttons. */
  order?: readonly CardLayout[];
  /** Each button's tooltip too (its name otherwise only for screen readers). */
  titles?: boolean;
  className?: string;
}

const NAMES: Record<CardLayout, string> = { grid: 'Grid', list: 'List' };

export function CardLayoutSwitch({ label, value, onChange, order = ['list', 'grid'], titles, className }: CardLayoutSwitchProps): ReactElement {
  return (
    <SegmentedControl
      label={label}
      icons
      className={className}
      value={value}
      onChange={onChange}
      options={order.map((v) => ({ value: v, label: <Icon name={v} size={20} />, ariaLabel: NAMES[v], ...(titles ? { title: NAMES[v] } : {}) }))}
    />
  );
}
