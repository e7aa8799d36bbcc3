// Sections of DevicePage.tsx (DevicePage), each drawn by the page.
import { useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { UploadProgress } from '../../ui/UploadProgress';
import { AskManual } from './AskManual';
import { DeviceForm, draftFromDevice } from './DeviceForm';
import { FilesSection, LinksSection, ServiceSection } from './DeviceSections';
import { FileButton } from './parts';
import { useDeleteDevice, useDeleteFile, useLookup, usePatchDevice, useSetMainPhoto, useUploadFile, useWebSearch } from './queries';
import { WebSearchForm } from './WebSearchForm';
import { CATEGORY_ONE, deviceApi, deviceSubtitle, formatDay, INVENTORY_HREF, warrantyWords, type Device } from './types';
import { fmt } from '../../ui/locale';

export function DeviceView({ device }: { device: Device }): ReactElement {
  const navigate = useNavigate();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const patch = usePatchDevice(device.id);
  const remove = useDeleteDevice();
  const sub = deviceSubtitle(device);

  return (
    <>
      <div className="page__head">
        <div className="page__intro">
          <h1 id="device-title" className="page__title">
            {device.name}
          </h1>
          {sub ? <p className="muted page__description">{sub}</p> : null}
        </div>
        <div className="page__actions">
          <button type="button" className="btn btn--secondary btn--compact" onClick={() => setEditing(true)}>
            <Icon name="edit" size={20} />
            Edit
          </button>
          {device.canDelete ? (
            <button type="button" className="btn btn--danger-ghost btn--compact" onClick={() => setDeleting(true)}>
              <Icon name="trash" size={20} />
              Delete
            </button>
          ) : null}
        </div>
      </div>

      <LookupState device={device} />

      <div className="inv-device__grid">
        <div className="inv-device__col">
          <PhotosSection device={device} />
          <DetailsSection device={device} onEdit={() => setEditing(true)} />
          <WarrantySection device={device} />
        </div>
        <div className="inv-device__col">
          <ManualSection device={device} />
          <AskManual device={device} />
          <FilesSection device={device} />
          <LinksSection device={device} />
          <ServiceSection device={device} />
        </div>
      </div>

      <Dialog open={editing} title={`Edit ${device.name}`} onClose={() => (patch.isPending ? undefined : setEditing(false))} testId="device-edit">
        {editing ? (
          <DeviceForm
            initial={draftFromDevice(device)}
            saveLabel="Save changes"
            busy={patch.isPending}
            error={patch.error ? errorMessage(patch.error) : null}
            fieldErrors={patch.error instanceof ApiError ? patch.error.fieldIssues : undefined}
            onCancel={() => {
              patch.reset();
              setEditing(false);
            }}
            onSave={(body) =>
              patch.mutate(body, {
                onSuccess: () => {
                  setEditing(false);
                  toast('Saved.');
                },
              })
            }
          />
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={deleting}
        title={`Delete ${device.name}?`}
        description="Its photos, files, manual and service log go too, for everyone in the household."
        confirmLabel="Delete"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await remove.mutateAsync(device.id);
          setDeleting(false);
          toast(`${device.name} was deleted.`);
          navigate(INVENTORY_HREF);
        }}
      />
    </>
  );
}

export function LookupState({ device }: { device: Device }): ReactElement | null {
  const lookup = useLookup(device.id);
  // whether a search server is set up: without one, Try again cannot work, and an admin is offered the setting
  const webSearch = useWebSearch();
  const noSearch = webSearch.data?.configured === false;
  const retry = (
    <button type="button" className="btn btn--secondary btn--compact" onClick={() => lookup.mutate()} disabled={lookup.isPending}>
      {lookup.isPending ? <Spinner size={18} /> : <Icon name="refresh" size={18} />}
      Try again
    </button>
  );
  let body: ReactElement | null = null;
  if (device.lookupStatus === 'pending') {
    body = (
      <p className="banner banner--info" data-testid="lookup-state" data-state="pending" role="status">
        <Spinner size={20} />
        <span>Looking up the manual, support page and photos for this {device.brand ?? ''} {device.model ?? 'device'}… You can keep using Hearth meanwhile.</span>
      </p>
    );
  } else if (device.lookupStatus === 'failed') {
    body = (
      <div className="banner banner--warn inv-lookup" data-testid="lookup-state" data-state="failed" role="status">
        <Icon name="warn" size={22} />
        <span>The manual could not be found this time. {device.lookupError ?? ''}</span>
        {retry}
      </div>
    );
  } else if (device.lookupStatus === 'skipped') {
    body = (
      <div className="banner banner--info inv-lookup" data-testid="lookup-state" data-state="skipped" role="status">
        <Icon name="search" size={22} />
        <span>Hearth did not look for the manual. {device.lookupError ?? 'Add the brand and model to have it looked up.'}</span>
        {device.brand && device.model && webSearch.data && !noSearch ? retry : null}
        {device.brand && device.model && noSearch && webSearch.data?.canChange ? <WebSearchForm onSaved={() => lookup.mutate()} /> : null}
      </div>
    );
  }
  if (!body) return null;
  return (
    <>
      {body}
      <FormError message={lookup.error ? errorMessage(lookup.error) : null} />
    </>
  );
}

export function PhotosSection({ device }: { device: Device }): ReactElement {
  const photos = device.files.filter((f) => f.fileType === 'image');
  const upload = useUploadFile();
  const setMain = useSetMainPhoto(device.id);
  const del = useDeleteFile(device.id);
  const [progress, setProgress] = useState<number | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const main = photos.find((p) => p.id === device.mainPhotoId) ?? photos[0];
  const error = upload.error ?? setMain.error ?? del.error;
  return (
    <section className="inv-section" aria-labelledby="photos-title">
      <h2 id="photos-title" className="inv-section__title">
        Photos
      </h2>
      {main ? (
        <a href={main.url} target="_blank" rel="noopener" className="inv-main-photo">
          <img src={main.thumbUrl ?? main.url} alt={`${device.name}, main photo`} />
        </a>
      ) : (
        <p className="muted">No photos yet.</p>
      )}
      {photos.length > 1 || (photos.length === 1 && main?.id !== device.mainPhotoId) ? (
        <ul className="inv-thumbs" aria-label="All photos">
          {photos.map((p, i) => (
            <li key={p.id} className="inv-thumb">
              <img src={p.thumbUrl ?? p.url} alt={`Photo ${i + 1}${p.source === 'ai' ? ', found on the web' : ''}`} loading="lazy" />
              <span className="inv-thumb__actions">
                {p.id === device.mainPhotoId ? (
                  <span className="badge badge--ok">Main photo</span>
                ) : (
                  <button type="button" className="btn btn--ghost btn--compact" onClick={() => setMain.mutate(p.id)} disabled={setMain.isPending} aria-label={`Make photo ${i + 1} the main photo`}>
                    Make main
                  </button>
                )}
                <button type="button" className="btn btn--ghost btn--icon" aria-label={`Delete photo ${i + 1}`} onClick={() => setRemoving(p.id)}>
                  <Icon name="trash" size={20} />
                </button>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {progress !== null ? (
        <UploadProgress label="Photo upload" fraction={progress} />
      ) : null}
      <div className="actions">
        <FileButton
          label={photos.length ? 'Add a photo' : 'Add a photo'}
          accept="image/*"
          capture="environment"
          icon="plus"
          compact
          disabled={upload.isPending}
          onFile={(file) => {
            setProgress(0);
            upload.mutate({ deviceId: device.id, file, role: photos.length ? 'photo' : 'main', onProgress: setProgress }, { onSettled: () => setProgress(null) });
          }}
          testId="add-photo"
        />
      </div>
      <FormError message={error ? errorMessage(error) : null} />
      <ConfirmDialog
        open={removing !== null}
        title="Delete this photo?"
        description="It is removed from this device for everyone."
        confirmLabel="Delete photo"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await del.mutateAsync(removing);
          setRemoving(null);
        }}
      />
    </section>
  );
}

export function DetailsSection({ device, onEdit }: { device: Device; onEdit: () => void }): ReactElement {
  const rows: Array<[string, string | null]> = [
    ['Brand', device.brand],
    ['Model', device.model],
    ['Serial number', device.serialNumber],
    ['Kind', CATEGORY_ONE[device.category]],
    ['Made on', device.manufacturedDate],
    ['Made in', device.countryOfOrigin],
    ['Where it is', device.location],
    ['Whose it is', device.owner],
    ['Bought on', device.purchaseDate ? formatDay(device.purchaseDate) : null],
    ['Price', device.purchasePrice === null ? null : fmt().number(device.purchasePrice, { minimumFractionDigits: 2, maximumFractionDigits: 2 })],
    ['Bought from', device.purchaseStore],
    ['Support phone', device.supportPhone],
    ['Added by', device.createdBy?.name ?? null],
  ];
  const specs = Object.entries(device.specs);
  return (
    <section className="inv-section" aria-labelledby="details-title">
      <h2 id="details-title" className="inv-section__title">
        Details
      </h2>
      <dl className="facts inv-facts" data-testid="device-details">
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div className="facts__row" key={k}>
              <dt>{k}</dt>
              <dd>{k === 'Support phone' ? <a href={`tel:${v}`}>{v}</a> : v}</dd>
            </div>
          ))}
      </dl>
      {device.supportUrl ? (
        <p>
          <a href={device.supportUrl} target="_blank" rel="noopener noreferrer">
            Maker’s support page <Icon name="external" size={16} />
          </a>
        </p>
      ) : null}
      {device.notes ? <p className="inv-notes">{device.notes}</p> : null}
      {specs.length ? (
        <>
          <h3 className="inv-section__sub">Specifications</h3>
          <dl className="facts inv-facts" data-testid="device-specs">
            {specs.map(([k, v]) => (
              <div className="facts__row" key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      {device.rawLabelText ? (
        <details className="inv-label-text">
          <summary>What the label says</summary>
          <pre>{device.rawLabelText}</pre>
        </details>
      ) : null}
      <button type="button" className="btn btn--ghost btn--compact" onClick={onEdit}>
        <Icon name="edit" size={20} />
        Edit details
      </button>
    </section>
  );
}

export function WarrantySection({ device }: { device: Device }): ReactElement {
  const w = warrantyWords(device);
  return (
    <section className="inv-section" aria-labelledby="warranty-title">
      <h2 id="warranty-title" className="inv-section__title">
        Warranty
      </h2>
      <p className={`inv-warranty inv-warranty--${w.tone}`} data-testid="warranty-words">
        {w.sentence}
      </p>
      {device.warrantyNotes ? <p className="muted">{device.warrantyNotes}</p> : null}
    </section>
  );
}

export function ManualSection({ device }: { device: Device }): ReactElement {
  return (
    <section className="inv-section" aria-labelledby="manual-title" data-testid="manual-section">
      <h2 id="manual-title" className="inv-section__title">
        Manual
      </h2>
      {device.hasManual ? (
        <>
          <p>
            <a className="btn btn--primary btn--compact" href={`${deviceApi(device.id)}/manual`} target="_blank" rel="noopener" data-testid="open-manual">
              <Icon name="book" size={20} />
              Open the manual
            </a>
          </p>
          <p className="muted" data-testid="manual-text-state">
            {device.manualTextChars > 0 ? 'Hearth has read the manual, so you can ask it questions below.' : 'Hearth could not read the text of this manual, so questions are answered from the details only.'}
          </p>
        </>
      ) : device.lookupStatus === 'pending' ? (
        <p className="muted">Hearth is looking for it now.</p>
      ) : (
        <p className="muted">No manual yet. Upload one as a PDF under Files, and Hearth reads it so you can ask it questions.</p>
      )}
      {device.manualUrl ? (
        <p className="muted">
          Found at{' '}
          <a href={device.manualUrl} target="_blank" rel="noopener noreferrer">
            the maker’s site <Icon name="external" size={16} />
          </a>
          {device.manualFetchedAt ? `, ${formatDay(device.manualFetchedAt.slice(0, 10))}` : ''}.
        </p>
      ) : null}
    </section>
  );
}
