// My home videos (/media/videos): a member's own videos in their private Plex library. The upload is
// resumable (tus-js-client against /api/mediaserver/me/uploads, 8 MB pieces): a dropped connection
// is tried again on its own, and after the last try a "Resume" button carries on from the last piece
// the server has. The size cap and the video types are named before a file is picked. The list shows
// each video's size and whether it is still being added to Plex or ready (with its picture once
// Plex has scanned it); delete asks first. The sync settings say what Hearth clears away by itself.
// Until an admin has set up the member's home videos library the page says so (not set up, being
// set up, failed, its folder unusable), that only an admin can fix it, and offers nothing else.
import { type ReactElement } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useMySections } from './home-videos-queries';
import './home-videos.css';

import { NotReady, UploadCard, VideoList, SyncSettings } from './HomeVideosSections';

export function HomeVideosPage(): ReactElement {
  const sections = useMySections();
  const mine = sections.data?.sections.find((s) => s.contentType === 'mine');
  const ready = !!mine?.storageReady && mine.section?.status === 'ready';
  return (
    <section className="page home-videos" aria-labelledby="home-videos-title">
      <PageHeader titleId="home-videos-title" title="My home videos" description="Your own videos, in your private library on the household’s Plex. Only you see them." />
      {!sections.data ? (
        sections.error ? (
          <ErrorState title="Your home videos did not load" error={sections.error} onRetry={() => void sections.refetch()} />
        ) : (
          <LoadingState label="Loading your home videos…" />
        )
      ) : !ready || !mine?.section ? (
        <NotReady section={mine?.section ?? null} />
      ) : (
        <>
          <UploadCard />
          <VideoList />
          <SyncSettings section={mine.section} />
        </>
      )}
    </section>
  );
}
