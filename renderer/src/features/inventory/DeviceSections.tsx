// The device page's lists: files (download, a comment each, delete, upload a receipt or a manual
// PDF), links grouped by kind (manuals, support, videos…), and the service log (add, edit, delete)
// with the maintenance the manual asks for offered as drafts the member confirms.
import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { DialogActions } from '../../ui/DialogActions';
import { Icon } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { UploadProgress } from '../../ui/UploadProgress';
import { FileButton } from './parts';
import { useAddService, useDeleteFile, useDeleteService, useEditService, useFileComment, useMaintenance, useUploadFile, type ServiceEntryInput } from './queries';
import { formatBytes, formatDay, LINK_GROUPS, SERVICE_TEXT, SERVICE_TYPES, todayIso, type Device, type DeviceFile, type ServiceEntry, type ServiceType } from './types';
import { fmt } from '../../ui/locale';

// ---- files -----------------------------------------------------------------------------------

export function FilesSection({ device }: { device: Device }): ReactElement {
  const files = device.files.filter((f) => f.fileType !== 'image');
  const upload = useUploadFile();
  const del = useDeleteFile(device.id);
  const [progress, setProgress] = useState<number | null>(null);
  const [commenting, setCommenting] = useState<DeviceFile | null>(null);
  const [removing, setRemoving] = useState<DeviceFile | null>(null);
  return (
    <section className="inv-section" aria-labelledby="files-title" data-testid="files-section">
      <h2 id="files-title" className="inv-section__title">
        Files
      </h2>
      {files.length === 0 ? <p className="muted">No files yet. Keep the receipt or a manual here.</p> : null}
      <ul className="inv-rows">
        {files.map((f) => (
          <li key={f.id} className="inv-row" data-testid="device-file">
            <span className="inv-row__main">
              <a href={f.url} download={f.label} className="inv-row__title">
                <Icon name={f.fileType === 'pdf' ? 'book' : 'folder'} size={18} /> {f.label}
              </a>
              <span className="inv-row__meta">
                {formatBytes(f.bytes)}
                {f.source === 'ai' ? ' · found on the web' : ''}
              </span>
              {f.comment ? <span className="inv-row__comment">{f.comment}</span> : null}
            </span>
            <span className="inv-row__actions">
              <button type="button" className="btn btn--ghost btn--icon" aria-label={`${f.comment ? 'Change the comment on' : 'Add a comment to'} ${f.label}`} title="Comment" onClick={() => setCommenting(f)}>
                <Icon name="edit" size={20} />
              </button>
              <button type="button" className="btn btn--ghost btn--icon" aria-label={`Delete ${f.label}`} title="Delete" onClick={() => setRemoving(f)}>
                <Icon name="trash" size={20} />
              </button>
            </span>
          </li>
        ))}
      </ul>
      {progress !== null ? (
        <UploadProgress label="File upload" fraction={progress} />
      ) : null}
      <FileButton
        label="Upload a receipt or manual"
        accept="application/pdf,.pdf,image/*"
        compact
        disabled={upload.isPending}
        testId="upload-file"
        onFile={(file) => {
          setProgress(0);
          upload.mutate({ deviceId: device.id, file, role: 'file', onProgress: setProgress }, { onSettled: () => setProgress(null) });
        }}
      />
      <FormError message={upload.error ? errorMessage(upload.error) : null} />
      {commenting ? <CommentDialog deviceId={device.id} file={commenting} onClose={() => setCommenting(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Delete ${removing?.label ?? 'this file'}?`}
        description="It is removed from this device for everyone."
        confirmLabel="Delete file"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await del.mutateAsync(removing.id);
          setRemoving(null);
        }}
      />
    </section>
  );
}

function CommentDialog({ deviceId, file, onClose }: { deviceId: string; file: DeviceFile; onClose: () => void }): ReactElement {
  const [text, setText] = useState(file.comment ?? '');
  const save = useFileComment(deviceId);
  return (
    <Dialog open title={`Comment on ${file.label}`} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ fileId: file.id, comment: text.trim() }, { onSuccess: onClose });
        }}
      >
        <TextField label="Comment" hint="For example: the receipt from the shop, or the installation guide." value={text} onChange={(e) => setText(e.target.value)} maxLength={1000} />
        <DialogActions busy={save.isPending} error={save.error ? errorMessage(save.error) : null} onCancel={onClose} label="Save comment" />
      </form>
    </Dialog>
  );
}

// ---- links -----------------------------------------------------------------------------------

export function LinksSection({ device }: { device: Device }): ReactElement | null {
  if (device.links.length === 0) return null;
  return (
    <section className="inv-section" aria-labelledby="links-title" data-testid="links-section">
      <h2 id="links-title" className="inv-section__title">
        Links
      </h2>
      {LINK_GROUPS.map(({ category, title }) => {
        const links = device.links.filter((l) => l.category === category);
        if (!links.length) return null;
        return (
          <div key={category} className="inv-link-group">
            <h3 className="inv-section__sub">{title}</h3>
            <ul className="inv-links">
              {links.map((l) => (
                <li key={l.id}>
                  <a href={l.url} target="_blank" rel="noopener noreferrer">
                    {l.label} <Icon name="external" size={16} />
                  </a>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}

// ---- service log -----------------------------------------------------------------------------

interface ServiceDraft {
  id: string | null;
  date: string;
  type: ServiceType;
  description: string;
  technician: string;
  cost: string;
}

export function ServiceSection({ device }: { device: Device }): ReactElement {
  const toast = useToast();
  const [editing, setEditing] = useState<ServiceDraft | null>(null);
  const [removing, setRemoving] = useState<ServiceEntry | null>(null);
  const del = useDeleteService(device.id);
  const suggestions = useMaintenance(device.id, device.manualTextChars > 0, device.manualFetchedAt);
  const entries = [...device.serviceLog].sort((a, b) => b.date.localeCompare(a.date));
  const blank = (): ServiceDraft => ({ id: null, date: todayIso(), type: 'maintenance', description: '', technician: '', cost: '' });
  return (
    <section className="inv-section" aria-labelledby="service-title" data-testid="service-section">
      <h2 id="service-title" className="inv-section__title">
        Service log
      </h2>
      {suggestions.data?.length ? (
        <div className="inv-suggestions" data-testid="maintenance-suggestions">
          <h3 className="inv-section__sub">The manual suggests</h3>
          <ul className="inv-rows">
            {suggestions.data.map((s) => (
              <li key={s.id} className="inv-row">
                <span className="inv-row__main">
                  <span className="inv-row__title">{s.description}</span>
                  <span className="inv-row__meta">
                    {s.interval}
                    {s.dueDate ? ` · next due ${formatDay(s.dueDate)}` : ''}
                  </span>
                  <span className="inv-row__comment">“{s.quote}”</span>
                </span>
                <span className="inv-row__actions">
                  <button type="button" className="btn btn--secondary btn--compact" onClick={() => setEditing({ ...blank(), description: s.description })}>
                    <Icon name="plus" size={18} />
                    Add to service log
                  </button>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {entries.length === 0 ? <p className="muted">Nothing noted yet. Note repairs, cleaning and check-ups here so everyone knows what was done.</p> : null}
      <ul className="inv-rows">
        {entries.map((e) => (
          <li key={e.id} className="inv-row" data-testid="service-entry">
            <span className="inv-row__main">
              <span className="inv-row__title">{e.description}</span>
              <span className="inv-row__meta">
                {formatDay(e.date)} · {SERVICE_TEXT[e.type]}
                {e.technician ? ` · ${e.technician}` : ''}
                {e.cost !== null ? ` · ${fmt().number(e.cost, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}` : ''}
              </span>
            </span>
            <span className="inv-row__actions">
              <button
                type="button"
                className="btn btn--ghost btn--icon"
                aria-label={`Edit ${e.description}`}
                title="Edit"
                onClick={() => setEditing({ id: e.id, date: e.date, type: e.type, description: e.description, technician: e.technician ?? '', cost: e.cost === null ? '' : String(e.cost) })}
              >
                <Icon name="edit" size={20} />
              </button>
              <button type="button" className="btn btn--ghost btn--icon" aria-label={`Delete ${e.description}`} title="Delete" onClick={() => setRemoving(e)}>
                <Icon name="trash" size={20} />
              </button>
            </span>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--secondary btn--compact" onClick={() => setEditing(blank())}>
        <Icon name="plus" size={20} />
        Note a service
      </button>
      {editing ? (
        <ServiceDialog
          deviceId={device.id}
          draft={editing}
          onClose={() => setEditing(null)}
          onSaved={(added) => {
            setEditing(null);
            toast(added ? 'Added to the service log.' : 'Saved.');
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Delete this entry?"
        description={removing ? `“${removing.description}” on ${formatDay(removing.date)} leaves the service log.` : undefined}
        confirmLabel="Delete entry"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (removing) await del.mutateAsync(removing.id);
          setRemoving(null);
        }}
      />
    </section>
  );
}

function ServiceDialog({ deviceId, draft, onClose, onSaved }: { deviceId: string; draft: ServiceDraft; onClose: () => void; onSaved: (added: boolean) => void }): ReactElement {
  const [d, setD] = useState(draft);
  const [local, setLocal] = useState<string | null>(null);
  const add = useAddService(deviceId);
  const edit = useEditService(deviceId);
  const busy = add.isPending || edit.isPending;
  const error = local ?? (add.error ? errorMessage(add.error) : edit.error ? errorMessage(edit.error) : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cost = d.cost.trim() ? Number(d.cost.trim().replace(',', '.')) : null;
    if (!d.description.trim()) return setLocal('Say what was done, for example “Cleaned the filter”.');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.date)) return setLocal('Choose the day it was done.');
    if (cost !== null && (!Number.isFinite(cost) || cost < 0)) return setLocal('Write the cost as a number, like 45.50.');
    setLocal(null);
    const body: ServiceEntryInput = { date: d.date, type: d.type, description: d.description.trim(), technician: d.technician.trim() || null, cost };
    if (d.id) edit.mutate({ entryId: d.id, body }, { onSuccess: () => onSaved(false) });
    else add.mutate(body, { onSuccess: () => onSaved(true) });
  };
  return (
    <Dialog open title={d.id ? 'Edit the service entry' : 'Note a service'} onClose={() => (busy ? undefined : onClose())} testId="service-dialog">
      <form onSubmit={submit} noValidate>
        <TextField label="What was done" value={d.description} onChange={(e) => setD({ ...d, description: e.target.value })} maxLength={2000} />
        <TextField label="When" type="date" value={d.date} onChange={(e) => setD({ ...d, date: e.target.value })} />
        <div className="field">
          <label className="field__label" htmlFor="service-type">
            Kind
          </label>
          <select id="service-type" className="input" value={d.type} onChange={(e) => setD({ ...d, type: e.target.value as ServiceType })}>
            {SERVICE_TYPES.map((t) => (
              <option key={t} value={t}>
                {SERVICE_TEXT[t]}
              </option>
            ))}
          </select>
        </div>
        <TextField label="Who did it" hint="Optional" value={d.technician} onChange={(e) => setD({ ...d, technician: e.target.value })} />
        <TextField label="Cost" hint="Optional" inputMode="decimal" value={d.cost} onChange={(e) => setD({ ...d, cost: e.target.value })} />
        <DialogActions busy={busy} error={error} onCancel={onClose} label={d.id ? 'Save changes' : 'Add to service log'} />
      </form>
    </Dialog>
  );
}
