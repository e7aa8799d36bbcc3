// CardList — a list of cards shown as a grid of tiles or as one column of rows. The page keeps the
// choice (useStoredChoice, CardLayoutSwitch) and draws each card.
//   <CardList view={view} className="inv-list" label="Devices" testId="device-list">{cards}</CardList>
//   (CardLayoutSwitch.tsx: the switch between the two.)
// A page sets its own sizes on its class: --card-list-min (a tile's narrowest width), --card-list-gap
// (between rows), --card-list-grid-gap (between tiles). Styled by its own CSS, imported here.
import type { ReactElement, ReactNode } from 'react';
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
