// /shows/:id (issue 35): one show's guide from TVmaze: the poster Hearth keeps, what it is, the next
// episode, "In your Plex" when the household's Plex has it (opening its Media page), and every
// season's episodes with a tick for each one the member has seen (shown at once, put back if Hearth
// refuses). When TVmaze could not be asked, the copy Hearth kept is shown and says how old it is.
import { useState, type ReactElement } from 'react';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { formatDuration } from '../../ui/format';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { episodeCode, whenLabel } from './household-time';
import { TitleHead, TvmazeCredit } from './parts';
import { useAddToWatchlist, useRemoveFromWatchlist, useShow, useTick, type Episode, type ShowResponse } from './queries';
import './shows.css';

function ago(seconds: number): string {
  const h = Math.round(seconds / 3600);
  if (h < 1) return 'less than an hour ago';
  if (h < 48) return `${h} ${h === 1 ? 'hour' : 'hours'} ago`;
  return `${Math.round(h / 24)} days ago`;
}

function Season({ number, episodes, tick, open }: { number: number; episodes: readonly Episode[]; tick: ReturnType<typeof useTick>; open: boolean }): ReactElement {
  const seen = episodes.filter((e) => e.watched).length;
  return (
    <details className="show-season" open={open}>
      <summary className="show-season__head">
        <span className="show-season__title">{number === 0 ? 'Specials' : `Season ${number}`}</span>
        <span className="muted">
          {seen} of {episodes.length} seen
        </span>
      </summary>
      <ul className="show-episodes">
        {episodes.map((e) => (
          <li key={e.id} className={e.watched ? 'show-episode show-episode--watched' : 'show-episode'}>
            <label className="show-episode__label">
              <input
                type="checkbox"
                className="show-episode__box"
                checked={e.watched}
                onChange={(ev) => tick.mutate({ episodeId: e.id, watched: ev.target.checked })}
                aria-label={`Seen ${episodeCode(e.season, e.number)} ${e.name}`}
              />
              <span className="show-episode__words">
                <span className="show-episode__name">
                  {episodeCode(e.season, e.number)} · {e.name}
                </span>
                <span className="show-episode__meta">{[e.airsAt ? whenLabel(e.airsAt) : 'Air date not known yet', e.runtime ? formatDuration(e.runtime * 60) : null].filter(Boolean).join(' · ')}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Guide({ data }: { data: ShowResponse }): ReactElement {
  const { show, nextEpisode, inPlex, freshness } = data;
  const tick = useTick(show.tvmazeId);
  const add = useAddToWatchlist();
  const remove = useRemoveFromWatchlist();
  const [changed, setChanged] = useState<string | null>(null);
  const seasons = [...new Set(data.episodes.map((e) => e.season))].sort((a, b) => a - b);
  // the season of the next episode (or the last one) starts open
  const openSeason = nextEpisode?.season ?? seasons.at(-1);
  const facts = [show.network, show.premiered ? `${show.premiered.slice(0, 4)}–${show.ended ? show.ended.slice(0, 4) : ''}` : null, show.status, show.genres.join(', ') || null].filter(Boolean).join(' · ');
  const toggle = () => {
    setChanged(null);
    if (data.onWatchlist) remove.mutate(show.tvmazeId, { onSuccess: () => setChanged('Removed from your watchlist.') });
    else add.mutate(show.tvmazeId, { onSuccess: () => setChanged('Added to your watchlist.') });
  };
  const busy = add.isPending || remove.isPending;
  const failed = add.error ?? remove.error;

  return (
    <>
      {freshness.stale ? (
        <p className="banner banner--info" role="status">
          TVmaze could not be reached, so this is the guide from {ago(freshness.ageSeconds)}.
        </p>
      ) : null}
      <TitleHead
        posterUrl={show.imageUrl}
        facts={facts}
        inPlex={inPlex ? { ratingKey: inPlex.ratingKey, playable: false } : null}
        watchlist={{ on: data.onWatchlist, busy, onToggle: toggle, status: changed ?? '' }}
        failed={failed}
        summary={show.summary}
      />

      <section className="shows-section" aria-labelledby="show-next">
        <h2 id="show-next" className="shows-section__title">
          Next episode
        </h2>
        <p className="show-next">
          {nextEpisode ? (
            <>
              <strong>
                {episodeCode(nextEpisode.season, nextEpisode.number)} · {nextEpisode.name}
              </strong>
              {nextEpisode.airsAt ? `, ${whenLabel(nextEpisode.airsAt)} (household time)` : ', date not known yet'}
            </>
          ) : show.ended ? (
            'None: the show has ended.'
          ) : (
            'None announced yet.'
          )}
        </p>
      </section>

      <section className="shows-section" aria-labelledby="show-episodes">
        <h2 id="show-episodes" className="shows-section__title">
          Episodes
        </h2>
        <FormError message={tick.isError ? `That tick was not saved, so it was put back. ${errorMessage(tick.error)}` : null} />
        {data.episodes.length === 0 ? (
          <EmptyState title="No episodes listed">TVmaze lists no episode of this show yet.</EmptyState>
        ) : (
          seasons.map((n) => <Season key={n} number={n} episodes={data.episodes.filter((e) => e.season === n)} tick={tick} open={n === openSeason} />)
        )}
      </section>
    </>
  );
}

export function ShowPage(): ReactElement {
  const { id = '' } = useParams();
  const tvmazeId = /^\d+$/.test(id) ? Number(id) : 0;
  const show = useShow(tvmazeId);
  usePageTitle(show.data?.show.name ?? 'Shows');
  const back = <IconButton icon="back" label="Watch" to="/watch" tone="ghost" />;
  return (
    <section className="page shows" aria-labelledby="show-title">
      <PageHeader titleId="show-title" title={show.data?.show.name ?? (show.isPending ? 'Loading the show…' : 'Show')} actions={back} />
      {show.isPending ? (
        <LoadingState label="Loading the guide…" />
      ) : show.isError ? (
        <ErrorState title="This show did not load" error={show.error} onRetry={() => void show.refetch()} />
      ) : (
        <Guide data={show.data} />
      )}
      <TvmazeCredit />
    </section>
  );
}
