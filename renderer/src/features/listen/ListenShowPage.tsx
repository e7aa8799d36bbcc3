// /listen/:id (issue 35): one show the member follows: its episodes, newest first, each with Play
// (resuming where they stopped), "Check for new episodes" (asks the feed now), and Unfollow after a
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
import { useEpisodes, useRefreshShow, useSubscriptions, useUnfollow } from './queries';
import './listen.css';
import { fmt } from '../../ui/locale';

export function ListenShowPage(): ReactElement {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const subs = useSubscriptions();
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
            {!show.stoppedAt ? <IconButton icon="refresh" label={refresh.isPending ? 'Checking…' : 'Check for new episodes'} disabled={refresh.isPending} onClick={() => refresh.mutate(show.id)} /> : null}
            <IconButton icon="trash" label="Unfollow" tone="danger-ghost" onClick={() => setConfirming(true)} />
          </>
        }
      />
      {show.imageUrl ? <img className="listen-cover listen-cover--large" src={show.imageUrl} alt="" decoding="async" /> : null}
      <FormError message={refresh.isError ? `Could not check for new episodes. ${errorMessage(refresh.error)}` : null} />
      {episodes.isPending ? (
        <LoadingState label="Loading episodes…" />
      ) : episodes.isError ? (
        <ErrorState title="The episodes did not load" error={episodes.error} onRetry={() => void episodes.refetch()} />
      ) : episodes.data.length === 0 ? (
        <EmptyState title="No episodes">The feed lists no episode with audio yet.</EmptyState>
      ) : (
        <EpisodeList episodes={episodes.data} showTitle={() => show.title} testId="episodes" />
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
