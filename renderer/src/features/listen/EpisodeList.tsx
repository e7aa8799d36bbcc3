// A list of episodes with a Play button each (the Listen page's inbox, a show's page): the title,
// the show (in the inbox), the date, the length and how far the member got.
import type { ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import { formatDuration } from '../../ui/format';
import { playEpisode, useNowPlaying } from './player-store';
import type { Episode } from './queries';
import { fmt } from '../../ui/locale';

const dateOf = (iso: string | null) => (iso ? fmt().date(iso) : null);

function progressOf(e: Episode): string | null {
  if (e.finished) return 'Played';
  if (e.positionSec <= 0) return null;
  return e.durationSec ? `${formatDuration(Math.max(0, e.durationSec - e.positionSec))} left` : `Stopped at ${formatDuration(e.positionSec)}`;
}

/** `withShow`: name each episode's show (the inbox mixes shows). */
export function EpisodeList({ episodes, showTitle, withShow = false, testId }: { episodes: readonly Episode[]; showTitle: (e: Episode) => string; withShow?: boolean; testId?: string }): ReactElement {
  const now = useNowPlaying();
  return (
    <ul className="listen-episodes" data-testid={testId}>
      {episodes.map((e) => {
        const show = showTitle(e);
        const facts = [dateOf(e.publishedAt), e.durationSec ? formatDuration(e.durationSec) : null, progressOf(e)].filter(Boolean).join(' · ');
        const current = now?.episodeId === e.id;
        const resume = !e.finished && e.positionSec > 0;
        return (
          <li key={e.id} className={e.finished ? 'listen-episode listen-episode--finished' : 'listen-episode'} aria-label={e.title}>
            <div className="listen-episode__words">
              <span className="listen-episode__title">{e.title}</span>
              <span className="listen-episode__meta">
                {withShow && show ? `${show} · ` : ''}
                {facts}
              </span>
            </div>
            <button
              type="button"
              className="btn btn--secondary btn--compact"
              aria-label={`${current ? 'Playing' : resume ? 'Resume' : 'Play'} ${e.title}`}
              onClick={() => playEpisode({ episodeId: e.id, title: e.title, showTitle: show, startAt: e.finished ? 0 : e.positionSec, durationSec: e.durationSec })}
            >
              <Icon name="play" size={20} />
              {current ? 'Playing' : resume ? 'Resume' : e.finished ? 'Play again' : 'Play'}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
