// A list of episodes with a Play button each (the Listen page's inbox, a show's page): the title,
// the show (in the inbox), the date, the length and how far the member got; and its offline copy:
// "Download" (Hearth's download queue fetches it), how the download goes, "Downloaded · 12 MB" with
// Remove, or why it failed with Try again. A downloaded episode plays from Hearth's copy (the same
// audio address: the server answers with the copy). In offline mode only downloaded episodes play,
// and nothing can be downloaded; the buttons say why.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { formatBytes, formatDuration } from '../../ui/format';
import { FormError } from '../../ui/StateViews';
import { playEpisode, togglePlaying, useIsPlaying, useNowPlaying } from './player-store';
import { useDownloadEpisode, useRemoveDownload, type Episode } from './queries';
import { fmt } from '../../ui/locale';

const dateOf = (iso: string | null) => (iso ? fmt().date(iso) : null);

function progressOf(e: Episode): string | null {
  if (e.finished) return 'Played';
  if (e.positionSec <= 0) return null;
  return e.durationSec ? `${formatDuration(Math.max(0, e.durationSec - e.positionSec))} left` : `Stopped at ${formatDuration(e.positionSec)}`;
}

/** The copy's state in words (null: none asked for). */
function copyOf(e: Episode): string | null {
  const d = e.download;
  if (!d) return null;
  if (d.state === 'ready') return d.bytes !== null ? `Downloaded · ${formatBytes(d.bytes)}` : 'Downloaded';
  if (d.state === 'downloading') return d.bytes && d.totalBytes ? `Downloading… ${Math.floor((d.bytes / d.totalBytes) * 100)} %` : d.bytes ? `Downloading… ${formatBytes(d.bytes)}` : 'Downloading…';
  if (d.state === 'waiting') return d.error ? `Waiting to try the download again: ${d.error}` : 'Waiting to download';
  return `Download failed: ${d.error ?? 'try again.'}`;
}

function DownloadButton({ e, offline, onError }: { e: Episode; offline: boolean; onError: (message: string | null) => void }): ReactElement {
  const download = useDownloadEpisode();
  const remove = useRemoveDownload();
  const busy = download.isPending || remove.isPending;
  const run = (work: Promise<unknown>) => {
    onError(null);
    work.catch((err: unknown) => onError(errorMessage(err)));
  };
  const d = e.download;
  if (d && d.state !== 'failed') {
    const ready = d.state === 'ready';
    return <IconButton icon={ready ? 'trash' : 'close'} label={ready ? 'Remove download' : 'Stop download'} accessibleLabel={`${ready ? 'Remove the download of' : 'Stop downloading'} ${e.title}`} labelShown="wide" tone="ghost" disabled={busy} onClick={() => run(remove.mutateAsync(e.id))} />;
  }
  return (
    <IconButton
      icon="download"
      label={d ? 'Try again' : 'Download'}
      accessibleLabel={offline ? `Download ${e.title} (not in offline mode)` : `Download ${e.title} for offline`}
      labelShown="wide"
      tone="ghost"
      disabled={busy || offline}
      onClick={() => run(download.mutateAsync(e.id))}
    />
  );
}

/** `withShow`: name each episode's show (the inbox mixes shows). `offline`: Hearth is in offline mode (only downloaded episodes play). */
export function EpisodeList({ episodes, showTitle, withShow = false, offline = false, testId }: { episodes: readonly Episode[]; showTitle: (e: Episode) => string; withShow?: boolean; offline?: boolean; testId?: string }): ReactElement {
  const now = useNowPlaying();
  const playing = useIsPlaying();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <FormError message={error ? `That did not work. ${error}` : null} />
      <ul className="listen-episodes" data-testid={testId}>
        {episodes.map((e) => {
          const show = showTitle(e);
          const facts = [dateOf(e.publishedAt), e.durationSec ? formatDuration(e.durationSec) : null, progressOf(e)].filter(Boolean).join(' · ');
          const current = now?.episodeId === e.id;
          const resume = !e.finished && e.positionSec > 0;
          // the episode in the mini-player: Pause while it plays, Resume while paused; another: Play, Resume or Play again
          const verb = current ? (playing ? 'Pause' : 'Resume') : resume ? 'Resume' : e.finished ? 'Play again' : 'Play';
          const playable = !offline || e.download?.state === 'ready';
          const copy = copyOf(e);
          return (
            <li key={e.id} className={e.finished ? 'listen-episode listen-episode--finished' : 'listen-episode'} aria-label={e.title}>
              <div className="listen-episode__words">
                <span className="listen-episode__title">{e.title}</span>
                <span className="listen-episode__meta">
                  {withShow && show ? `${show} · ` : ''}
                  {facts}
                </span>
                {copy ? (
                  <span className={e.download?.state === 'failed' ? 'listen-episode__meta listen-episode__meta--error' : 'listen-episode__meta'} data-testid="episode-copy">
                    {copy}
                  </span>
                ) : null}
                {!playable ? <span className="listen-episode__meta">Not downloaded: it plays once Hearth is out of offline mode.</span> : null}
              </div>
              <div className="listen-episode__actions">
                <DownloadButton e={e} offline={offline} onError={setError} />
                <button
                  type="button"
                  className="btn btn--secondary btn--compact"
                  aria-label={`${verb} ${e.title}`}
                  disabled={!playable}
                  onClick={() => (current ? togglePlaying() : playEpisode({ episodeId: e.id, title: e.title, showTitle: show, startAt: e.finished ? 0 : e.positionSec, durationSec: e.durationSec }))}
                >
                  <Icon name={current && playing ? 'pause' : 'play'} size={20} />
                  {verb}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}
