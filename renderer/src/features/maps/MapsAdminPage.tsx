// Admin › Maps (issue 36): the region catalog with each region's size and whether it is installed,
// the disk's free space, Download with live progress (POST /api/admin/maps/download/:id, an event
// stream: waiting, downloading, retrying, installing, directions, then done or error), Remove with a
// confirm, and the household places (Home, School) every member sees, added by searching.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { openPostStream, type StreamHandle } from '../../api/sse';
import type { MapDownloadEventMap } from '../../api/types';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { JobProgress } from '../downloads';
import { HouseholdPlaces } from './HouseholdPlaces';
import { OnlineGeocoder } from './OnlineGeocoder';
import { useMapCatalog, useRefreshMaps, useRemoveRegion } from './queries';
import './maps.css';

type Progress = MapDownloadEventMap['progress'];
type DownloadEvents = MapDownloadEventMap & { error: { code?: string; message?: string } };

const STATE_TEXT: Record<Progress['state'], string> = {
  waiting: 'Waiting for its turn',
  downloading: 'Downloading',
  retrying: 'The connection dropped; trying again',
  installing: 'Installing the map',
  directions: 'Preparing directions',
};

export function MapsAdminPage(): ReactElement {
  const catalog = useMapCatalog();
  const remove = useRemoveRegion();
  const refresh = useRefreshMaps();
  const [live, setLive] = useState<Record<string, Progress | 'starting'>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const streams = useRef(new Map<string, StreamHandle>());

  useEffect(() => {
    const open = streams.current;
    return () => {
      for (const s of open.values()) s.close();
    };
  }, []);

  const download = (id: string) => {
    setProblems(({ [id]: _, ...rest }) => rest);
    setLive((l) => ({ ...l, [id]: 'starting' }));
    const stream = openPostStream<DownloadEvents>(
      `/api/admin/maps/download/${encodeURIComponent(id)}`,
      {},
      {
        progress: (p) => setLive((l) => ({ ...l, [id]: p })),
        error: (e) => setProblems((p) => ({ ...p, [id]: e?.message ?? 'The download failed.' })),
      },
      { closeOn: ['done', 'error'] },
    );
    streams.current.set(id, stream);
    stream.done
      .catch((err: unknown) => setProblems((p) => ({ ...p, [id]: errorMessage(err) })))
      .finally(() => {
        streams.current.delete(id);
        setLive(({ [id]: _, ...rest }) => rest);
        void refresh();
      });
  };

  const header = <PageHeader titleId="maps-admin-title" title="Maps" description="Map regions for everyone in the household, kept on this computer: search and directions work with the internet cut." />;
  let body: ReactElement;
  if (catalog.isPending) body = <LoadingState label="Loading the map catalog…" />;
  else if (catalog.isError) body = <ErrorState title="The map catalog did not load" error={catalog.error} onRetry={() => void catalog.refetch()} />;
  else if (catalog.data.regions.length === 0) body = <EmptyState icon="map" title="The map catalog lists no regions">Regions to download are listed in Hearth’s map catalog: maps.json in its catalog folder, or the file the MAP_CATALOG_PATH setting names. Hearth’s guide to maps (docs/maps.md) says how to make a region and list it.</EmptyState>;
  else {
    const { regions, freeBytes } = catalog.data;
    body = (
      <>
        <p className="maps-note" data-testid="maps-free">
          {freeBytes === null ? 'The free space on this computer’s disk could not be read.' : `Free space on this computer: ${formatBytes(freeBytes)}.`}
        </p>
        <ul className="maps-regions" aria-label="Map regions">
          {regions.map((r) => {
            const progress = live[r.id];
            const tooBig = freeBytes !== null && r.bytes > freeBytes;
            return (
              <li key={r.id} className="maps-region" aria-label={r.name}>
                <div className="maps-region__head">
                  <span className="maps-region__name">{r.name}</span>
                  <span className="maps-list__sub">
                    {formatBytes(r.bytes)}
                    {r.hasRouting ? ' · with directions' : ' · map and search only'}
                  </span>
                </div>
                {progress ? (
                  progress === 'starting' ? (
                    <p className="maps-note" role="status">Starting…</p>
                  ) : (
                    <div role="status">
                      <JobProgress label={`${STATE_TEXT[progress.state]}${progress.message ? `: ${progress.message}` : ''}`} figures={{ bytesDone: progress.bytesDone, bytesTotal: progress.bytesTotal, speedBps: 0, etaSeconds: null }} live={false} />
                    </div>
                  )
                ) : r.installed ? (
                  <div className="maps-region__row">
                    <span className="maps-badge">
                      <Icon name="check" size={16} /> Installed
                    </span>
                    <button type="button" className="btn btn--ghost btn--compact" aria-label={`Remove ${r.name}`} onClick={() => setRemoving({ id: r.id, name: r.name })}>
                      <Icon name="trash" size={18} />
                      Remove
                    </button>
                  </div>
                ) : r.downloading ? (
                  <p className="maps-note">
                    Downloading: follow it in <Link to="/downloads">Downloads</Link>.
                  </p>
                ) : (
                  <div className="maps-region__row">
                    <button type="button" className="btn btn--primary btn--compact" aria-label={`Download ${r.name}`} disabled={tooBig} aria-describedby={tooBig ? `too-big-${r.id}` : undefined} onClick={() => download(r.id)}>
                      <Icon name="download" size={18} />
                      Download
                    </button>
                    {tooBig ? (
                      <span id={`too-big-${r.id}`} className="maps-list__sub">
                        Not enough free space for it.
                      </span>
                    ) : null}
                  </div>
                )}
                <FormError message={problems[r.id] ?? null} />
              </li>
            );
          })}
        </ul>
      </>
    );
  }

  return (
    <section className="page maps-admin" aria-labelledby="maps-admin-title">
      {header}
      <h2 className="maps-section-title">Regions</h2>
      {body}
      <HouseholdPlaces />
      <OnlineGeocoder />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'this map'}?`}
        description="Its map, its place names and its directions leave this computer for everyone. You can download it again later."
        confirmLabel="Remove"
        onConfirm={async () => {
          if (removing) await remove.mutateAsync(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </section>
  );
}
