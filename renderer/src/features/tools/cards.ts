// The cards the Tools page shows, in order. A tool adds its card here (a component of its own
// feature, loaded with the page); the page itself only lays them out.
import type { ComponentType } from 'react';
import { LookupCard } from '../lookup';
import { VisionCard } from '../vision';
import { ConverterCard } from './ConverterCard';
import { SpeedTestCard } from './SpeedTestCard';

export interface ToolCard {
  id: string;
  Card: ComponentType;
}

export const TOOL_CARDS: readonly ToolCard[] = [
  { id: 'converter', Card: ConverterCard },
  { id: 'speedtest', Card: SpeedTestCard },
  { id: 'lookup', Card: LookupCard },
  { id: 'vision', Card: VisionCard },
];
