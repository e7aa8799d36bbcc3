// /listen (issue 35): the member's podcasts. Search the podcast directory (Apple's, or Podcast Index
// once an admin adds its key; the results say which answered, and why Apple's did when Podcast Index
// could not) and follow a show (one listed without a feed address cannot be followed, and says so); new episodes of the shows
// they follow (the inbox); their shows, each opening its episodes; and their shows as an OPML file
// to take elsewhere, or one brought from another app. Only the member sees any of it; admins also
// find the Podcast Index key here.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { FilePicker } from '../../ui/FilePicker';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SearchForm, useSubmittedSearch } from '../../ui/SearchForm';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { useUser } from '../../app/session';
import { EpisodeList } from './EpisodeList';
import { PodcastIndexSetting } from './PodcastIndexSetting';
import { OPML_HREF, showHref, useFollow, useImportOpml, useInbox, useListenOffline, usePodcastSearch, useSubscriptions, type PodcastResult, type PodcastSearch, type Subscription } from './queries';
import './listen.css';

const DIRECTORY: Record<PodcastSearch['source'], string> = { itunes: 'Apple’s podcast directory', podcastindex: 'Podcast Index' };

function SearchResults({ q, subscriptions }: { q: string; subscriptions: readonly Subscription[] }): ReactElement | null {
  const search = usePodcastSearch(q);
  const follow = useFollow();
  const [following, setFollowing] = useState<string | null>(null);
  if (!q) return null;
  if (search.isPending) return <LoadingState label="Searching the podcast directory…" />;
  if (search.isError) return <ErrorState title="The search did not work" error={search.error} onRetry={() => void search.refetch()} />;
  const directory = DIRECTORY[search.data.source];
  const notice = search.data.notice ? (
    <p className="card listen-notice" role="status">
      {search.data.notice}
    </p>
  ) : null;
  if (search.data.results.length === 0)
    return (
      <>
        {notice}
        <EmptyState title="No podcasts found">
          Nothing in {directory} matches “{q}”. Try other words.
        </EmptyState>
      </>
    );
  const followed = new Map(subscriptions.map((s) => [s.feedUrl, s]));
  const act = (r: PodcastResult) => {
    if (!r.feedUrl) return;
    setFollowing(r.feedUrl);
    follow.mutate(r.feedUrl, { onSettled: () => setFollowing(null) });
  };
  return (
    <div className="listen-results">
      {notice}
      <p className="muted listen-results__source">Results from {directory}.</p>
      <FormError message={follow.isError ? `Could not follow that show. ${errorMessage(follow.error)}` : null} />
      <ul className="listen-list" aria-label="Search results">
        {search.data.results.map((r, i) => {
          const mine = r.feedUrl ? followed.get(r.feedUrl) : undefined;
          return (
            <li key={`${r.feedUrl ?? r.title}-${i}`} className="listen-row" aria-label={r.title}>
              <div className="listen-row__words">
                <span className="listen-row__title">{r.title}</span>
                {r.author ? <span className="listen-row__meta">{r.author}</span> : null}
                {!r.subscribable ? <span className="listen-row__meta">The directory lists no feed address for this show, so Hearth cannot follow it.</span> : null}
              </div>
              {mine ? (
                <Link to={showHref(mine.id)} className="btn btn--ghost btn--compact">
                  <Icon name="check" size={20} />
                  Following
                </Link>
              ) : (
                <button type="button" className="btn btn--primary btn--compact" disabled={!r.subscribable || following !== null} onClick={() => act(r)} aria-label={`Follow ${r.title}`}>
                  <Icon name="plus" size={20} />
                  {following === r.feedUrl ? 'Following…' : 'Follow'}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function OpmlCard({ hasShows, offline }: { hasShows: boolean; offline: boolean }): ReactElement {
  const importOpml = useImportOpml();
  const [readError, setReadError] = useState<string | null>(null);
  const onFile = (file: File | null) => {
    setReadError(null);
    importOpml.reset();
    if (!file) return;
    file.text().then(
      (xml) => importOpml.mutate(xml),
      () => setReadError('That file could not be read. Choose it again.'),
    );
  };
  const r = importOpml.data;
  return (
    <section className="listen-section" aria-labelledby="listen-opml">
      <h2 id="listen-opml" className="listen-section__title">
        Move your shows
      </h2>
      <p className="muted listen-section__lead">Bring your shows from another podcast app as an OPML file, or take them with you.</p>
      <div className="listen-opml">
        <FilePicker label="Import an OPML file" accept=".opml,.xml,text/xml,text/x-opml" onFile={onFile} disabled={importOpml.isPending || offline} error={readError} hint={offline ? 'Importing reads each show’s feed, which waits until Hearth is out of offline mode.' : undefined} testId="opml-file" />
        {hasShows ? (
          <a className="btn btn--secondary" href={OPML_HREF} download="podcasts.opml">
            <Icon name="download" size={20} />
            Export my shows (OPML)
          </a>
        ) : null}
      </div>
      <p role="status" className="listen-opml__result">
        {importOpml.isPending ? 'Reading the feeds in that file…' : r ? `${r.added.length} ${r.added.length === 1 ? 'show' : 'shows'} followed` + (r.existing ? `, ${r.existing} already followed` : '') + (r.failed ? `, ${r.failed} could not be read` : '') + '.' : ''}
      </p>
      <FormError message={importOpml.isError ? `That file was not imported. ${errorMessage(importOpml.error)}` : null} />
    </section>
  );
}

export function ListenPage(): ReactElement {
  usePageTitle('Listen');
  const search = useSubmittedSearch();
  const { q } = search;
  const subs = useSubscriptions();
  const offline = useListenOffline();
  const inbox = useInbox();
  const isAdmin = useUser().role === 'admin';
  const titles = new Map((subs.data ?? []).map((s) => [s.id, s.title]));

  return (
    <section className="page listen" aria-labelledby="listen-title">
      <PageHeader titleId="listen-title" title="Listen" description="Podcasts you follow. Only you see your shows and how far you got in each episode." />

      <section className="listen-section" aria-labelledby="listen-find">
        <h2 id="listen-find" className="listen-section__title">
          Find a podcast
        </h2>
        {offline ? (
          <p className="card listen-notice" role="status">
            Hearth is in offline mode, so searching the podcast directory and following new shows wait until it is back online. Your shows and downloaded episodes work as usual.
          </p>
        ) : (
          <>
            <SearchForm className="listen-search" id="listen-search" label="Search podcasts" placeholder="Name or subject" search={search} />
            <p className="muted listen-section__lead">Searches a podcast directory on the internet (Apple’s, or Podcast Index when an admin has set it up): the words you type are sent there.</p>
            <SearchResults q={q} subscriptions={subs.data ?? []} />
          </>
        )}
      </section>

      <section className="listen-section" aria-labelledby="listen-new">
        <h2 id="listen-new" className="listen-section__title">
          New episodes
        </h2>
        {inbox.isPending ? (
          <LoadingState label="Loading new episodes…" />
        ) : inbox.isError ? (
          <ErrorState title="New episodes did not load" error={inbox.error} onRetry={() => void inbox.refetch()} />
        ) : inbox.data.length === 0 ? (
          <EmptyState title="Nothing new">Episodes published after you follow a show arrive here until you have heard them.</EmptyState>
        ) : (
          <EpisodeList episodes={inbox.data} showTitle={(e) => titles.get(e.subscriptionId) ?? ''} withShow offline={offline} testId="inbox" />
        )}
      </section>

      <section className="listen-section" aria-labelledby="listen-shows">
        <h2 id="listen-shows" className="listen-section__title">
          Your shows
        </h2>
        {subs.isPending ? (
          <LoadingState label="Loading your shows…" />
        ) : subs.isError ? (
          <ErrorState title="Your shows did not load" error={subs.error} onRetry={() => void subs.refetch()} />
        ) : subs.data.length === 0 ? (
          <EmptyState icon="headphones" title="You follow no shows yet">
            Search for a podcast above and follow it, or import the shows from your old app below.
          </EmptyState>
        ) : (
          <ul className="listen-list" aria-label="Your shows">
            {subs.data.map((s) => (
              <li key={s.id} className="listen-row">
                {s.imageUrl ? <img className="listen-cover" src={s.imageUrl} alt="" loading="lazy" decoding="async" /> : null}
                <Link to={showHref(s.id)} className="listen-row__link">
                  <span className="listen-row__title">{s.title}</span>
                  {s.stoppedAt ? <span className="listen-row__meta">This feed has ended: no new episodes will come.</span> : null}
                  {!s.stoppedAt && s.pollError ? <span className="listen-row__meta">Its feed could not be read lately.</span> : null}
                </Link>
                <Icon name="forward" size={20} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <OpmlCard hasShows={(subs.data?.length ?? 0) > 0} offline={offline} />
      {isAdmin ? <PodcastIndexSetting /> : null}
    </section>
  );
}
