// Where the shell keeps the mini-player (mounted once, beside the page, so that moving between
// pages never stops it). Nothing is drawn, and none of the player's code is loaded, until an
// episode is started.
import { lazy, Suspense, type ReactElement } from 'react';
import { useNowPlaying } from './player-store';

const MiniPlayer = lazy(() => import('./MiniPlayer').then((m) => ({ default: m.MiniPlayer })));

export function MiniPlayerSlot(): ReactElement | null {
  const now = useNowPlaying();
  if (!now) return null;
  return (
    <Suspense fallback={null}>
      <MiniPlayer key={now.episodeId} now={now} />
    </Suspense>
  );
}
