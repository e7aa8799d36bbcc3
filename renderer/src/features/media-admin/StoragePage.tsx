// Media storage (admin, /admin/media-storage): the folders on this computer that members' private
// libraries live in, each with how the media server sees it (its path on the Plex computer) and a
// Check that the server really sees it there; and one row per member and content type with its
// library's state. Provision stays disabled, with the server's reason beside it, until rule 3's order
// is met (a location for the type, its mapping checked, the server connected); a failed one offers
// Try again. Deleting a location still in use is refused by the server with a sentence, shown in the
// dialog. Last, the household's limits on members' unfinished uploads (how many, how much space).
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useAdminSections, useCheckLocation, useDeleteLocation, useProvision, useSaveLocation, useSaveUploadLimits, useStorageLocations, useUploadLimits, type LocationInput } from './storage-queries';
import type { AdminSectionsResponse, ContentType, SectionStatus, StorageLocation } from '../../../../server/modules/media-server/schema.js';
import './storage.css';

const TYPE_NAMES: Record<ContentType, string> = { mine: 'Home videos' };
const MAPPING_TEXT: Record<NonNullable<StorageLocation['mappingState']>, { text: string; tone: string }> = {
  ok: { text: 'Seen by the media server', tone: 'ok' },
  missing: { text: 'Not seen by the media server', tone: 'warn' },
  error: { text: 'Check failed', tone: 'error' },
};
const STATUS_TEXT: Record<SectionStatus, { text: string; tone: string }> = {
  queued: { text: 'Waiting to be set up', tone: 'info' },
  creating: { text: 'Being set up', tone: 'info' },
  scanning: { text: 'Being set up', tone: 'info' },
  ready: { text: 'Ready', tone: 'ok' },
  failed: { text: 'Failed', tone: 'error' },
};

export function StoragePage(): ReactElement {
  const locations = useStorageLocations();
  const [editing, setEditing] = useState<StorageLocation | 'new' | null>(null);
  return (
    <section className="page media-storage" aria-labelledby="media-storage-title">
      <PageHeader
        titleId="media-storage-title"
        title="Media storage"
        description="Where members’ own videos are kept on this computer, and their private libraries on the household’s Plex."
        actions={
          <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
            <Icon name="plus" /> Add a location
          </button>
        }
      />
      <p className="muted">
        The media server itself is set up on <Link to="/admin/media">Media server</Link>.
      </p>
      <h2 className="media-storage__h2">Storage locations</h2>
      {!locations.data ? (
        locations.error ? (
          <ErrorState title="The storage locations did not load" error={locations.error} onRetry={() => void locations.refetch()} />
        ) : (
          <LoadingState label="Loading the storage locations…" />
        )
      ) : locations.data.locations.length === 0 ? (
        <EmptyState icon="folder" title="No storage locations yet">
          Add a folder on this computer that the media server can also see. Members’ videos are kept there.
        </EmptyState>
      ) : (
        <ul className="media-storage__list">
          {locations.data.locations.map((loc) => (
            <LocationCard key={loc.id} location={loc} onEdit={() => setEditing(loc)} />
          ))}
        </ul>
      )}
      <h2 className="media-storage__h2">Members’ libraries</h2>
      <Provisioning />
      <h2 className="media-storage__h2" id="upload-limits-title">
        Home video uploads
      </h2>
      <UploadLimitsCard />
      {editing ? <LocationDialog location={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </section>
  );
}

function LocationCard({ location, onEdit }: { location: StorageLocation; onEdit: () => void }): ReactElement {
  const check = useCheckLocation();
  const remove = useDeleteLocation();
  const toast = useToast();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const mapping = location.mappingState ? MAPPING_TEXT[location.mappingState] : null;
  return (
    <li className="card media-storage__card" data-testid="storage-location">
      <h3 className="media-storage__name">
        {location.name} {location.ready ? <span className="badge badge--ok">Ready</span> : <span className="badge badge--warn">Not ready</span>}
      </h3>
      <dl className="facts">
        <div className="facts__row">
          <dt>Folder on this computer</dt>
          <dd className="media-storage__path">{location.localPath}</dd>
        </div>
        <div className="facts__row">
          <dt>The media server sees it as</dt>
          <dd className="media-storage__path">{location.serverPath ?? 'Not set'}</dd>
        </div>
        <div className="facts__row">
          <dt>For</dt>
          <dd>{location.contentTypes.length ? location.contentTypes.map((t) => TYPE_NAMES[t]).join(', ') : 'Nothing yet'}</dd>
        </div>
        <div className="facts__row">
          <dt>Space</dt>
          <dd>{!location.writable ? 'Hearth cannot write there' : location.freeBytes !== null ? `${formatBytes(location.freeBytes)} free` : 'Unknown'}</dd>
        </div>
        <div className="facts__row">
          <dt>Check</dt>
          <dd>{mapping ? <span className={`badge badge--${mapping.tone}`}>{mapping.text}</span> : 'Not checked yet'}</dd>
        </div>
      </dl>
      {result ? (
        <p className={`banner banner--${result.ok ? 'info' : 'warn'}`} role="status" data-testid="check-result">
          <Icon name={result.ok ? 'check' : 'warn'} size={22} />
          <span>{result.message}</span>
        </p>
      ) : null}
      <FormError message={check.error ? errorMessage(check.error) : null} />
      <div className="media-storage__actions">
        <button
          type="button"
          className="btn"
          disabled={check.isPending || !location.serverPath}
          onClick={() => check.mutate(location.id, { onSuccess: (r) => setResult({ ok: r.ok, message: r.message }), onError: () => setResult(null) })}
        >
          {check.isPending ? <Spinner /> : <Icon name="check" />} Check
        </button>
        <button type="button" className="btn btn--ghost" onClick={onEdit}>
          <Icon name="edit" /> Edit
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => setDeleting(true)}>
          <Icon name="trash" /> Delete
        </button>
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${location.name}?`}
        description="Hearth forgets this location. The folder and the files in it stay on this computer."
        confirmLabel="Delete"
        onConfirm={async () => {
          await remove.mutateAsync(location.id);
          toast(`${location.name} was deleted.`);
          setDeleting(false);
        }}
        onClose={() => setDeleting(false)}
      />
    </li>
  );
}

function LocationDialog({ location, onClose }: { location: StorageLocation | null; onClose: () => void }): ReactElement {
  const save = useSaveLocation();
  const toast = useToast();
  const [name, setName] = useState(location?.name ?? '');
  const [localPath, setLocalPath] = useState(location?.localPath ?? '');
  const [serverPath, setServerPath] = useState(location?.serverPath ?? '');
  const [types, setTypes] = useState<ContentType[]>(location?.contentTypes ?? ['mine']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const input: LocationInput = { name: name.trim(), localPath: localPath.trim(), contentTypes: types, serverPath: serverPath.trim() || null };
    save.mutate(
      { id: location?.id ?? null, input },
      {
        onSuccess: (r) => {
          toast(location ? `${r.location.name} was saved.` : `${r.location.name} was added. Check it to make sure the media server sees it.`);
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open title={location ? `Edit ${location.name}` : 'Add a storage location'} onClose={onClose} description="A folder on this computer that the media server can see too.">
      <form className="media-storage__form" onSubmit={submit}>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={80} />
        <TextField label="Folder on this computer" hint="The full path, for example /srv/media/hearth." value={localPath} onChange={(e) => setLocalPath(e.target.value)} required maxLength={1024} />
        <TextField
          label="How the media server sees this folder"
          hint="The same folder’s full path on the computer Plex runs on (the same path if Plex runs here)."
          value={serverPath}
          onChange={(e) => setServerPath(e.target.value)}
          maxLength={1024}
        />
        {(Object.keys(TYPE_NAMES) as ContentType[]).map((t) => (
          <Switch key={t} label={`Keep ${TYPE_NAMES[t].toLowerCase()} here`} checked={types.includes(t)} onCheckedChange={(on) => setTypes((cur) => (on ? [...cur.filter((x) => x !== t), t] : cur.filter((x) => x !== t)))} />
        ))}
        <FormError message={save.error ? errorMessage(save.error) : null} />
        <div className="media-storage__actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? <Spinner /> : null} {location ? 'Save' : 'Add'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function Provisioning(): ReactElement {
  const sections = useAdminSections();
  if (!sections.data) {
    return sections.error ? <ErrorState title="Members’ libraries did not load" error={sections.error} onRetry={() => void sections.refetch()} /> : <LoadingState label="Loading members’ libraries…" />;
  }
  if (sections.data.rows.length === 0) return <EmptyState icon="members" title="No members yet" />;
  return (
    <ul className="media-storage__list">
      {sections.data.rows.map((row) => (
        <ProvisionRow key={`${row.userId}-${row.contentType}`} row={row} />
      ))}
    </ul>
  );
}

function ProvisionRow({ row }: { row: AdminSectionsResponse['rows'][number] }): ReactElement {
  const provision = useProvision();
  const status = row.section ? STATUS_TEXT[row.section.status] : null;
  const failed = row.section?.status === 'failed';
  const canStart = !row.section || failed;
  const reasonId = `provision-${row.userId}-${row.contentType}-reason`;
  return (
    <li className="card media-storage__row" data-testid="provision-row">
      <div className="media-storage__row-text">
        <span className="media-storage__name">
          {row.name} · {TYPE_NAMES[row.contentType]}
        </span>
        <span>{status ? <span className={`badge badge--${status.tone}`}>{status.text}</span> : <span className="muted">Not set up</span>}</span>
        {failed && row.section?.error ? <span className="field__error">{row.section.error}</span> : null}
        {canStart && row.blockedReason ? (
          <span id={reasonId} className="muted">
            {row.blockedReason}
          </span>
        ) : null}
        <FormError message={provision.error ? errorMessage(provision.error) : null} />
      </div>
      {canStart ? (
        <button
          type="button"
          className="btn btn--primary"
          disabled={!!row.blockedReason || provision.isPending}
          aria-describedby={row.blockedReason ? reasonId : undefined}
          aria-label={`${failed ? 'Try again for' : 'Provision'} ${row.name}`}
          onClick={() => provision.mutate({ userId: row.userId, contentType: row.contentType })}
        >
          {provision.isPending ? <Spinner /> : null} {failed ? 'Try again' : 'Provision'}
        </button>
      ) : null}
    </li>
  );
}

const GB = 1024 ** 3;

/** How many unfinished uploads each member may have, and how much space they may take together. */
function UploadLimitsCard(): ReactElement {
  const limits = useUploadLimits();
  const save = useSaveUploadLimits();
  const toast = useToast();
  const [count, setCount] = useState('');
  const [gb, setGb] = useState('');
  useEffect(() => {
    if (!limits.data) return;
    setCount(String(limits.data.maxOpenUploads));
    setGb(String(Math.round((limits.data.maxOpenBytes / GB) * 10) / 10));
  }, [limits.data]);
  if (!limits.data) {
    return limits.error ? <ErrorState title="The upload limits did not load" error={limits.error} onRetry={() => void limits.refetch()} /> : <LoadingState label="Loading the upload limits…" />;
  }
  const countNumber = Number(count);
  const gbNumber = Number(gb);
  const countError = count !== '' && (!Number.isInteger(countNumber) || countNumber < 1 || countNumber > 1000) ? 'Give a whole number from 1 to 1000.' : null;
  const gbError = gb !== '' && (!Number.isFinite(gbNumber) || gbNumber < 0.1 || gbNumber > 10240) ? 'Give a number of GB from 0.1 to 10240.' : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (countError || gbError || count === '' || gb === '') return;
    save.mutate({ maxOpenUploads: countNumber, maxOpenBytes: Math.round(gbNumber * GB) }, { onSuccess: () => toast('The upload limits were saved.') });
  };
  return (
    <form className="card media-storage__card media-storage__limits" aria-labelledby="upload-limits-title" onSubmit={submit} data-testid="upload-limits">
      <p className="muted">
        A video is kept on this computer while it uploads, and an unfinished one is cleared after a day. These limits keep one member from filling the disk. Hearth also refuses an upload
        the disk cannot hold.
      </p>
      <TextField label="Unfinished uploads per member" type="number" inputMode="numeric" min={1} max={1000} step={1} required value={count} error={countError} onChange={(e) => setCount(e.target.value)} />
      <TextField
        label="Space one member’s unfinished uploads may take (GB)"
        type="number"
        inputMode="decimal"
        min={0.1}
        max={10240}
        step={0.1}
        required
        value={gb}
        error={gbError}
        onChange={(e) => setGb(e.target.value)}
      />
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="media-storage__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending || !!countError || !!gbError}>
          {save.isPending ? <Spinner /> : null} Save the limits
        </button>
      </div>
    </form>
  );
}
