// /listen/:id (issue 35): one show the member follows: its episodes, newest first, each with Play
// (resuming where they stopped) and Download for offline; "Keep downloaded" (Hearth downloads the
// newest N by itself and removes older copies); "Check for new episodes" (asks the feed now); a feed
// failing poll after poll, with its last error; offline mode's limits; and Unfollow after a
// confirmation (their places in its episodes go with it).
import { useState, type ReactElement } from 'react';
import { useNavigate, useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconButton } from '../../ui/IconButton';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { EpisodeList } from './EpisodeList';
import { useEpisodes, useKeepNewest, useListenOffline, useRefreshShow, useSubscriptions, useUnfollow, type Subscription } from './queries';
import './listen.css';
import { fmt } from '../../ui/locale';

const KEEP_CHOICES = [1, 3, 5, 10] as const;

/** "Keep downloaded": the newest N episodes kept as offline copies, or only those downloaded by hand. */
function KeepNewest({ show, offline }: { show: Subscription; offline: boolean }): ReactElement {
  const keep = useKeepNewest();
  const id = `keep-${show.id}`;
  return (
    <div className="listen-keep">
      <label htmlFor={id}>Keep downloaded</label>
      <select
        id={id}
        className="input"
        value={show.keepNewest === null ? '' : String(show.keepNewest)}
        disabled={keep.isPending}
        onChange={(ev) => keep.mutate({ id: show.id, keepNewest: ev.target.value ? Number(ev.target.value) : null })}
      >
        <option value="">Only what I download</option>
        {[...new Set([...KEEP_CHOICES, ...(show.keepNewest !== null ? [show.keepNewest] : [])])]
          .sort((a, b) => a - b)
          .map((n) => (
            <option key={n} value={n}>
              The newest {n === 1 ? 'episode' : `${n} episodes`}
            </option>
          ))}
      </select>
      <span className="muted listen-section__lead">
        {show.keepNewest === null
          ? 'Download episodes one by one below.'
          : offline
            ? 'Older downloads are removed; new ones are downloaded once Hearth is out of offline mode.'
            : 'Hearth downloads new episodes by itself and removes older downloads. Ones you remove are not downloaded again.'}
      </span>
      <FormError message={keep.isError ? `That was not saved. ${errorMessage(keep.error)}` : null} />
    </div>
  );
}

export function ListenShowPage(): ReactElement {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const subs = useSubscriptions();
  const offline = useListenOffline();
  const episodes = useEpisodes(id);
  const refresh = useRefreshShow();
  const unfollow = useUnfollow();
  const [confirming, setConfirming] = useState(false);
  const show = subs.data?.find((s) => s.id === id);
  usePageTitle(show?.title ?? 'Listen');

  const back = <IconButton icon="back" label="All your shows" to="/listen" tone="ghost" />;
  if (!show)
    return (
      <section className="page listen" aria-labelledby="listen-title">
        <PageHeader titleId="listen-title" title={subs.isPending ? 'Loading the show…' : subs.isError ? 'Listen' : 'Not one of your shows'} actions={back} />
        {subs.isPending ? (
          <LoadingState label="Loading the show…" />
        ) : subs.isError ? (
          <ErrorState title="The show did not load" error={subs.error} onRetry={() => void subs.refetch()} />
        ) : (
          <EmptyState title="You do not follow this show">It may have been unfollowed, on this device or another.</EmptyState>
        )}
      </section>
    );

  return (
    <section className="page listen" aria-labelledby="listen-title">
      <PageHeader
        titleId="listen-title"
        title={show.title}
        description={show.stoppedAt ? 'This feed has ended: no new episodes will come.' : `Following since ${fmt().date(show.subscribedAt)}.`}
        actions={
          <>
            {back}
            {!show.stoppedAt ? (
              <IconButton
                icon="refresh"
                label={refresh.isPending ? 'Checking…' : 'Check for new episodes'}
                disabled={refresh.isPending || offline}
                title={offline ? 'Hearth is in offline mode, so it cannot check the feed.' : undefined}
                onClick={() => refresh.mutate(show.id)}
              />
            ) : null}
            <IconButton icon="trash" label="Unfollow" tone="danger-ghost" onClick={() => setConfirming(true)} />
          </>
        }
      />
      {show.imageUrl ? <img className="listen-cover listen-cover--large" src={show.imageUrl} alt="" decoding="async" /> : null}
      {offline ? (
        <p className="card listen-notice" role="status">
          Hearth is in offline mode: downloaded episodes play, and your places are kept. Checking for new episodes, downloading and playing episodes not downloaded wait until it is back online.
        </p>
      ) : null}
      {show.pollError ? (
        <p className="card listen-notice" role="status" data-testid="poll-error">
          Hearth could not read this show’s feed the last {show.pollError.failures} times: {show.pollError.message} It asks less often while the feed fails
          {show.pollError.nextTryAt ? `; next time around ${fmt().date(show.pollError.nextTryAt, 'weekday')} ${fmt().time(show.pollError.nextTryAt)}` : ''}.
        </p>
      ) : null}
      <KeepNewest show={show} offline={offline} />
      <FormError message={refresh.isError ? `Could not check for new episodes. ${errorMessage(refresh.error)}` : null} />
      {episodes.isPending ? (
        <LoadingState label="Loading episodes…" />
      ) : episodes.isError ? (
        <ErrorState title="The episodes did not load" error={episodes.error} onRetry={() => void episodes.refetch()} />
      ) : episodes.data.length === 0 ? (
        <EmptyState title="No episodes">The feed lists no episode with audio yet.</EmptyState>
      ) : (
        <EpisodeList episodes={episodes.data} showTitle={() => show.title} offline={offline} testId="episodes" />
      )}
      <ConfirmDialog
        open={confirming}
        title={`Unfollow ${show.title}?`}
        description="Its episodes leave your lists, and where you stopped in each is forgotten. You can follow it again later."
        confirmLabel="Unfollow"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          await unfollow.mutateAsync(show.id);
          setConfirming(false);
          navigate('/listen', { replace: true });
        }}
      />
    </section>
  );
}
