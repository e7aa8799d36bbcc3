// CardLayoutSwitch — the two icon buttons that choose how a CardList shows: a grid of tiles or a
// list of rows (a SegmentedControl).
//   <CardLayoutSwitch label="Show as" value={view} onChange={setView} />
import type { ReactElement } from 'react';
import type { CardLayout } from './CardList';
import { Icon } from './icons';
import { SegmentedControl } from './SegmentedControl';

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
