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
/** Whether the mini-player's audio is playing now (it reports), and how to pause or resume it from a list. */
let playing = false;
let toggle: (() => void) | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function playEpisode(e: Omit<NowPlaying, 'request'>): void {
  current = { ...e, request: ++requests };
  emit();
}

export function stopPlaying(): void {
  current = null;
  playing = false;
  emit();
}

/** The mini-player says whether its audio plays (on play, pause, end, error). */
export function reportPlaying(now: boolean): void {
  if (now === playing) return;
  playing = now;
  emit();
}

/** The mini-player lends its play/pause to the lists while it is shown; the returned function takes it back. */
export function lendToggle(fn: () => void): () => void {
  toggle = fn;
  return () => {
    if (toggle === fn) toggle = null;
  };
}

/** Pauses or resumes what the mini-player is playing (an episode list's Pause/Resume). */
export function togglePlaying(): void {
  toggle?.();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useNowPlaying(): NowPlaying | null {
  return useSyncExternalStore(subscribe, () => current);
}

/** Whether the current episode's audio is playing (false while paused, or nothing loaded). */
export function useIsPlaying(): boolean {
  return useSyncExternalStore(subscribe, () => playing);
}
