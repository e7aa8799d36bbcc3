// /videos (issue 35): the household's video hub. What is new from the YouTube channels the household
// follows, the PeerTube instances an admin listed and the member's podcasts, each played in the
// video mini-player (YouTube in its privacy-enhanced embed, the rest from Hearth); copies saved for
// offline (only videos whose licence allows it); search through the admin's Invidious or Piped
// instance, or the sentence saying how an admin sets one; and the channels, added by address or
// @handle, removed by whoever added them or an admin, moved in and out as OPML.
import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { FilePicker } from '../../ui/FilePicker';
import { fmt } from '../../ui/locale';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SearchForm, useSubmittedSearch } from '../../ui/SearchForm';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { usePageTitle } from '../../ui/usePageTitle';
import { OPML_HREF, useAddChannel, useChannels, useHub, useImportChannels, useRemoveChannel, useSaveVideo, useVideoSearch, type Video, type VstreamEntry } from './queries';
import { playVideo } from './video-store';
import type { VideoPlace } from './video-progress';
import './videos.css';

const SOURCE: Record<Video['source'], string> = { youtube: 'YouTube', peertube: 'PeerTube', podcast: 'Podcast' };
const day = (iso: string | null) => (iso ? fmt().date(iso) : null);
/** Where a <video>'s place is kept: a podcast episode's on the server, a PeerTube video's on this device (the copy and the original share it). */
const placeFor = (source: Video['source'], sourceId: string): VideoPlace | null => (source === 'podcast' ? { kind: 'podcast', episodeId: sourceId } : source === 'peertube' ? { kind: 'device', key: `peertube:${sourceId}` } : null);
const ago = (s: number) => (s >= 7200 ? `${Math.round(s / 3600)} hours ago` : s >= 3600 ? 'an hour ago' : `${Math.max(1, Math.round(s / 60))} minutes ago`);
const minutes = (s: number | null) => (s && s > 0 ? (s >= 60 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`) : null);

function VideoList({ videos, saved, label, testId, offline = false }: { videos: readonly Video[]; saved: ReadonlyMap<string, VstreamEntry>; label: string; testId?: string; offline?: boolean }): ReactElement {
  const save = useSaveVideo();
  const [saving, setSaving] = useState<string | null>(null);
  const [started, setStarted] = useState<ReadonlySet<string>>(new Set());
  return (
    <>
      <FormError message={save.isError ? `That video was not saved. ${errorMessage(save.error)}` : null} />
      <ul className="videos-list" aria-label={label} data-testid={testId}>
        {videos.map((v) => {
          const copy = saved.get(`${v.source}:${v.sourceId}`);
          const meta = [v.channel, SOURCE[v.source], day(v.publishedAt), minutes(v.durationSec)].filter(Boolean).join(' · ');
          const ready = copy?.state === 'ready';
          // offline, Hearth cannot fetch a PeerTube or podcast file; a saved copy and YouTube's embed (the browser's own connection) still play
          const unreachable = offline && !ready && v.streamUrl !== null;
          return (
            <li key={v.key} className="videos-row" aria-label={v.title}>
              {v.thumbnailUrl ? <img className="videos-thumb" src={v.thumbnailUrl} alt="" loading="lazy" decoding="async" /> : <span className="videos-thumb videos-thumb--none" aria-hidden="true"><Icon name="play" size={20} /></span>}
              <div className="videos-row__words">
                <span className="videos-row__title">{v.title}</span>
                <span className="videos-row__meta">{meta}</span>
                {unreachable ? <span className="videos-row__meta">Hearth is in offline mode: this plays once it is back online.</span> : null}
              </div>
              <div className="videos-row__actions">
                <button type="button" className="btn btn--primary btn--compact" aria-label={`Play ${v.title}`} disabled={unreachable} onClick={() => playVideo({ key: v.key, title: v.title, channel: v.channel, embedUrl: v.embedUrl, streamUrl: ready ? copy.streamUrl : v.streamUrl, place: placeFor(v.source, v.sourceId) })}>
                  <Icon name="play" size={20} />
                  Play
                </button>
                {v.cacheable && !(offline && !copy) ? (
                  copy || started.has(v.key) ? (
                    <span className="videos-row__saved">{ready ? 'Saved for offline' : 'Saving for offline…'}</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn--ghost btn--compact"
                      aria-label={`Save ${v.title} for offline`}
                      disabled={saving !== null}
                      onClick={() => {
                        setSaving(v.key);
                        save.mutate(v, { onSuccess: () => setStarted((was) => new Set([...was, v.key])), onSettled: () => setSaving(null) });
                      }}
                    >
                      <Icon name="download" size={20} />
                      {saving === v.key ? 'Saving…' : 'Save'}
                    </button>
                  )
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function SearchSection({ configured, offline }: { configured: boolean; offline: boolean }): ReactElement {
  const search = useSubmittedSearch();
  const found = useVideoSearch(search.q, configured && !offline);
  return (
    <section className="videos-section" aria-labelledby="videos-search">
      <h2 id="videos-search" className="videos-section__title">
        Search YouTube
      </h2>
      {configured && offline ? (
        <p className="muted videos-section__lead">Hearth is in offline mode, so search cannot reach the instance your admin chose. The channels’ videos fetched before are listed above.</p>
      ) : configured ? (
        <>
          <SearchForm className="videos-search" id="videos-search-field" label="Search videos" placeholder="Words to look for" search={search} />
          <p className="muted videos-section__lead">Searches through the Invidious or Piped instance your admin chose: the words you type are sent to it.</p>
          {!search.q ? null : found.isPending ? (
            <LoadingState label="Searching…" />
          ) : found.isError ? (
            <ErrorState title="The search did not work" error={found.error} onRetry={() => void found.refetch()} />
          ) : found.data.results.length === 0 ? (
            <EmptyState title="No videos found">Nothing matches “{search.q}”. Try other words.</EmptyState>
          ) : (
            <VideoList videos={found.data.results} saved={new Map()} label="Search results" />
          )}
        </>
      ) : (
        <p className="muted videos-section__lead" data-testid="search-not-configured">
          Video search needs an Invidious or Piped instance, and none is set. An admin adds one in Admin, Videos; until then, follow channels by their address below.
        </p>
      )}
    </section>
  );
}

function ChannelsSection(): ReactElement {
  const channels = useChannels();
  const add = useAddChannel();
  const remove = useRemoveChannel();
  const importOpml = useImportChannels();
  const [url, setUrl] = useState('');
  const [readError, setReadError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!url.trim()) return;
    add.mutate(url.trim(), { onSuccess: () => setUrl('') });
  };
  // a subscriptions file from FreeTube, NewPipe or Invidious: read here, sent as it is
  const importFile = async (file: File | null) => {
    importOpml.reset();
    let xml: string | null = null;
    if (file) xml = await file.text().catch(() => null);
    setReadError(file && xml === null ? 'That file could not be read. Choose it again.' : null);
    if (xml !== null) importOpml.mutate(xml);
  };
  const r = importOpml.data;
  return (
    <section className="videos-section" aria-labelledby="videos-channels">
      <h2 id="videos-channels" className="videos-section__title">
        Channels the household follows
      </h2>
      <form className="videos-add" onSubmit={submit}>
        <TextField label="Add a YouTube channel" hint="Its address (youtube.com/@name) or its @handle. Hearth reads its public feed; no account is needed." value={url} onChange={(e) => setUrl(e.target.value)} autoComplete="off" error={add.isError ? errorMessage(add.error) : null} />
        <button type="submit" className="btn btn--primary" disabled={!url.trim() || add.isPending}>
          <Icon name="plus" size={20} />
          {add.isPending ? 'Adding…' : 'Add'}
        </button>
      </form>
      <FormError message={remove.isError ? `That channel was not removed. ${errorMessage(remove.error)}` : null} />
      {channels.isPending ? (
        <LoadingState label="Loading the channels…" />
      ) : channels.isError ? (
        <ErrorState title="The channels did not load" error={channels.error} onRetry={() => void channels.refetch()} />
      ) : channels.data.length === 0 ? (
        <EmptyState icon="tv" title="No channels yet">
          Add a channel above, or import the subscriptions from FreeTube, NewPipe or Invidious below.
        </EmptyState>
      ) : (
        <ul className="videos-list" aria-label="Channels">
          {channels.data.map((c) => (
            <li key={c.id} className="videos-row" aria-label={c.title}>
              <div className="videos-row__words">
                <span className="videos-row__title">{c.title}</span>
                <span className="videos-row__meta">{c.addedBy ? `Added by ${c.addedBy}` : 'Added by a former member'}</span>
              </div>
              {c.canRemove ? (
                <button type="button" className="btn btn--ghost btn--compact" aria-label={`Remove ${c.title}`} disabled={remove.isPending} onClick={() => remove.mutate(c.id)}>
                  <Icon name="trash" size={20} />
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div className="videos-opml">
        <FilePicker label="Import an OPML file" accept=".opml,.xml,text/xml,text/x-opml" onFile={(f) => void importFile(f)} disabled={importOpml.isPending} error={readError} testId="videos-opml-file" />
        {(channels.data?.length ?? 0) > 0 ? (
          <a className="btn btn--secondary" href={OPML_HREF} download="youtube-channels.opml">
            <Icon name="download" size={20} />
            Export the channels (OPML)
          </a>
        ) : null}
      </div>
      <p role="status" className="videos-opml__result">
        {importOpml.isPending ? 'Reading the channels in that file…' : r ? `${r.added.length} ${r.added.length === 1 ? 'channel' : 'channels'} added` + (r.existing ? `, ${r.existing} already followed` : '') + (r.failed ? `, ${r.failed} could not be read` : '') + '.' : ''}
      </p>
      <FormError message={importOpml.isError ? `That file was not imported. ${errorMessage(importOpml.error)}` : null} />
    </section>
  );
}

export function VideosPage(): ReactElement {
  usePageTitle('Videos');
  const hub = useHub();
  const saved = new Map((hub.data?.cached ?? []).map((e) => [`${e.source}:${e.sourceId}`, e]));
  return (
    <section className="page videos" aria-labelledby="videos-title">
      <PageHeader titleId="videos-title" title="Videos" description="New from the channels the household follows, PeerTube and your podcasts. Videos play in the player at the bottom, and keep playing while you move between pages." />

      <section className="videos-section" aria-labelledby="videos-new">
        <h2 id="videos-new" className="videos-section__title">
          New videos
        </h2>
        {hub.isPending ? (
          <LoadingState label="Loading new videos…" />
        ) : hub.isError ? (
          <ErrorState title="New videos did not load" error={hub.error} onRetry={() => void hub.refetch()} />
        ) : (
          <>
            {hub.data.freshness?.stale ? <p className="muted videos-section__lead">The channels’ videos are from {ago(hub.data.freshness.ageSeconds)}; YouTube could not be asked again since.</p> : null}
            {hub.data.notices.map((n) => (
              <p key={n} className="banner banner--warn">
                {n}
              </p>
            ))}
            {hub.data.videos.length === 0 ? (
              <EmptyState icon="tv" title="Nothing new yet">
                Add a YouTube channel below. Video episodes of the podcasts you follow, and PeerTube instances an admin lists, show here too.
              </EmptyState>
            ) : (
              <VideoList videos={hub.data.videos} saved={saved} label="New videos" testId="hub" offline={hub.data.offline} />
            )}
          </>
        )}
      </section>

      {hub.data && hub.data.cached.length > 0 ? (
        <section className="videos-section" aria-labelledby="videos-saved">
          <h2 id="videos-saved" className="videos-section__title">
            Saved for offline
          </h2>
          <ul className="videos-list" aria-label="Saved for offline">
            {hub.data.cached.map((e) => (
              <li key={e.id} className="videos-row" aria-label={e.title}>
                <div className="videos-row__words">
                  <span className="videos-row__title">{e.title}</span>
                  <span className="videos-row__meta">{[e.licence, SOURCE[e.source]].filter(Boolean).join(' · ')}</span>
                </div>
                <button type="button" className="btn btn--primary btn--compact" aria-label={`Play ${e.title}`} onClick={() => playVideo({ key: `vstream:${e.id}`, title: e.title, channel: null, embedUrl: null, streamUrl: e.streamUrl, place: placeFor(e.source, e.sourceId) })}>
                  <Icon name="play" size={20} />
                  Play
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <SearchSection configured={hub.data?.searchConfigured ?? false} offline={hub.data?.offline ?? false} />
      <ChannelsSection />
    </section>
  );
}
