// Sizes of feature items in words: download size (decimal units, as disks are sold) and memory
// (binary gigabytes, as memory is sold: 8 GB, 16 GB).
import { formatBytes } from '../../ui/format';
import { fmt } from '../../ui/locale';
import type { FeatureItem } from './types';

export function formatMemory(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${gib >= 10 ? Math.round(gib) : Math.round(gib * 10) / 10} GB`;
  return `${Math.max(1, Math.round(bytes / 1024 ** 2))} MB`;
}

/** "4.68 GB download · needs 8 GB of memory" (or "Nothing to download" for items without files). */
export function itemSizeText(item: Pick<FeatureItem, 'diskBytes' | 'ramBytes' | 'installs'>): string {
  const disk = item.installs.length === 0 || item.diskBytes === 0 ? 'Nothing to download' : `${formatBytes(item.diskBytes)} download`;
  return item.ramBytes > 0 ? `${disk} · needs ${formatMemory(item.ramBytes)} of memory` : disk;
}

export const SLOW_NOTE = 'May be slow on this computer';

/** "About 12 words a second on this computer (measured 3 Dec)": what Admin › Benchmarks measured of a chat model. */
export function measuredSpeedText(speed: { wordsPerSecond: number; measuredAt: string } | null): string | null {
  if (!speed) return null;
  const words = Math.max(1, Math.round(speed.wordsPerSecond));
  const day = fmt().date(speed.measuredAt, 'day');
  return `About ${words} ${words === 1 ? 'word' : 'words'} a second on this computer (measured ${day} in Benchmarks)`;
}
