// The Smart home widget (issue 37): the member's favourite devices from the Smart home page, with
// their live state and switches (FavouriteTiles says when Home Assistant is not connected, or how to
// add favourites). An area of its own, not an app: always offered in the widget picker.
import type { ReactElement } from 'react';
import { FavouriteTiles } from '../smart-home';
import { ToolCard, type WidgetProps } from './widget-card';

export const SMART_HOME_DEF = { toolId: 'smart-home', name: 'Smart home', icon: 'home' } as const;

export function SmartHomeWidget({ tool }: WidgetProps): ReactElement {
  return (
    <ToolCard tool={tool} def={SMART_HOME_DEF} text="Your favourite devices." link={{ to: '/smart-home', label: 'Open Smart home' }}>
      <FavouriteTiles />
    </ToolCard>
  );
}
