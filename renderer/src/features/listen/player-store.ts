// What the mini-player is playing, kept outside React's tree so that it outlives the page that
// started it: the Listen pages call `playEpisode`, the shell's MiniPlayerSlot reads it. Tiny and
// React-light on purpose: the shell loads it on every screen.
import { useSyncExternalStore } from 'react';

export interface NowPlaying {
  episodeId: string;
  title: string;
  showTitle: string;
  /** Where to start (the saved position, or 0 for a finished episode played again). */
  startAt: number;
  /** From the feed, until the audio says better. */
  durationSec: number | null;
  /** Changes on every play request, so asking to play the current episode again resumes it. */
  request: number;
}

let current: NowPlaying | null = null;
let requests = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function playEpisode(e: Omit<NowPlaying, 'request'>): void {
  current = { ...e, request: ++requests };
  emit();
}

export function stopPlaying(): void {
  current = null;
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useNowPlaying(): NowPlaying | null {
  return useSyncExternalStore(subscribe, () => current);
}
