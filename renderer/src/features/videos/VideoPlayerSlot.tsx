// Where the shell keeps the video mini-player (mounted once, beside the page, so that moving between
// pages never stops it). Nothing is drawn, and none of the player's code is loaded, until a video is
// started; a podcast episode started meanwhile takes its place.
import { lazy, Suspense, useEffect, type ReactElement } from 'react';
import { useNowPlaying } from '../listen';
import { stopVideo, useNowWatching } from './video-store';

const VideoPlayer = lazy(() => import('./VideoPlayer').then((m) => ({ default: m.VideoPlayer })));

export function VideoPlayerSlot(): ReactElement | null {
  const now = useNowWatching();
  const episode = useNowPlaying();
  useEffect(() => {
    if (episode) stopVideo();
  }, [episode]);
  if (!now) return null;
  return (
    <Suspense fallback={null}>
      <VideoPlayer key={now.key} now={now} />
    </Suspense>
  );
}
