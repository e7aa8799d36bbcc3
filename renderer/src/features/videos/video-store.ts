// What the video mini-player shows, kept outside React's tree so that it outlives the page that
// started it: the Videos page calls `playVideo`, the shell's VideoPlayerSlot reads it. Starting a
// video stops the podcast player (one thing plays at a time); the slot stops the video when an
// episode starts. Tiny and React-light on purpose: the shell loads it on every screen.
import { useSyncExternalStore } from 'react';
import { stopPlaying } from '../listen';
import type { VideoPlace } from './video-progress';

export interface NowWatching {
  key: string;
  title: string;
  channel: string | null;
  /** YouTube: the privacy-enhanced embed (youtube-nocookie.com). */
  embedUrl: string | null;
  /** Hearth's address of the file for a <video> (PeerTube, a podcast, a cached copy). */
  streamUrl: string | null;
  /** Where the member's place in a <video> is kept (resume); null for the YouTube embed. */
  place: VideoPlace | null;
}

let current: NowWatching | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function playVideo(v: NowWatching): void {
  stopPlaying();
  current = v;
  emit();
}

export function stopVideo(): void {
  current = null;
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function useNowWatching(): NowWatching | null {
  return useSyncExternalStore(subscribe, () => current);
}
