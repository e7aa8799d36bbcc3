// Add-ons (LoRAs, admin): bring in a LoRA file (.safetensors only; Hearth reads its trigger
// words and base model from the file), the household's LoRAs with their weights, trigger words,
// category, the adult mark and on/off, and the categories they are grouped in. Who may use which
// is on the members' page (MembersImagePage): members get none until an admin allows them.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { DialogActions } from '../../ui/DialogActions';
import { FilePicker } from '../../ui/FilePicker';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { formatBytes } from '../../ui/format';
import { UploadProgress } from '../../ui/UploadProgress';
import { uploadFile } from '../../api/upload';
import { HubSection } from './HubSection';
import { useAddCategory, useAdminLoras, useDeleteCategory, useDeleteLora, usePatchCategory, usePatchLora, useLorasChanged } from './queries';
import { importFileApi, type AdminLora, type AdminLoraResponse, type LoraCategory } from './types';
import '../image/image.css';
import './image-admin.css';

export function LorasPage(): ReactElement {
  const loras = useAdminLoras();
  return (
    <section className="page img-admin" aria-labelledby="img-loras-title">
      <PageHeader titleId="img-loras-title" title="Picture add-ons" description="LoRAs: small files that teach the picture model a character, a look or a style. Members can use only the ones you allow them." />
      <p className="img-admin__links">
        <Link to="/admin/images" className="btn btn--ghost btn--compact">
          <Icon name="sliders" size={20} />
          Image engine
        </Link>
        <Link to="/admin/image-members" className="btn btn--ghost btn--compact">
          <Icon name="members" size={20} />
          Who may use what
        </Link>
      </p>
      <ImportFile />
      {!loras.data ? (
        loras.error ? <ErrorState title="The add-ons did not load" error={loras.error} onRetry={() => void loras.refetch()} /> : <LoadingState label="Loading the add-ons…" />
      ) : (
        <>
          <LoraList loras={loras.data.loras} categories={loras.data.categories} />
          <Categories categories={loras.data.categories} />
        </>
      )}
      <HubSection />
    </section>
  );
}

function ImportFile(): ReactElement {
  const lorasChanged = useLorasChanged();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const r = await uploadFile<AdminLoraResponse>(importFileApi, file, { onProgress: setProgress });
      toast(`${r.lora.name} was added. Allow it for members on Who may use what.`);
      setFile(null);
      await lorasChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setProgress(null);
    }
  };
  return (
    <div className="card img-admin__card">
      <h2 className="img-h2 img-admin__h2">Add a LoRA file</h2>
      <FilePicker key={file ? 'chosen' : 'none'} label="Choose a LoRA file" accept=".safetensors" hint="A .safetensors file, up to 2 GB." onFile={setFile} testId="lora-file" />
      {progress !== null ? (
        <UploadProgress label="Uploading" fraction={progress} />
      ) : null}
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="btn btn--primary" disabled={!file || progress !== null} onClick={() => void upload()} data-testid="lora-upload">
          {progress !== null ? <Spinner size={18} /> : <Icon name="upload" size={20} />}
          {progress !== null ? 'Adding…' : 'Add it'}
        </button>
      </div>
    </div>
  );
}

function LoraList({ loras, categories }: { loras: AdminLora[]; categories: LoraCategory[] }): ReactElement {
  const [editing, setEditing] = useState<AdminLora | null>(null);
  const [removing, setRemoving] = useState<AdminLora | null>(null);
  const del = useDeleteLora();
  return (
    <div className="card img-admin__card">
      <h2 className="img-h2 img-admin__h2">The household’s add-ons</h2>
      {loras.length === 0 ? (
        <EmptyState title="No add-ons yet">Add a LoRA file above, or find one below.</EmptyState>
      ) : (
        <ul className="img-admin__list" aria-label="Add-ons" data-testid="admin-loras">
          {loras.map((l) => (
            <li key={l.id} className="img-admin__item">
              <div className="img-admin__item-text">
                <span className="img-admin__item-name">{l.name}</span>
                <span className="img-admin__badges">
                  {l.category ? <span className="badge">{l.category.name}</span> : null}
                  {l.isAdult ? <span className="badge badge--warn">Adults only</span> : null}
                  {!l.enabled ? <span className="badge">Off</span> : null}
                  {!l.fileExists ? <span className="badge badge--error">File missing</span> : null}
                </span>
                <span className="muted">
                  Weight {l.defaultWeight} ({l.minWeight} to {l.maxWeight})
                  {l.triggerTokens.length ? ` · Trigger words: ${l.triggerTokens.join(', ')}` : ''}
                  {l.fileBytes ? ` · ${formatBytes(l.fileBytes)}` : ''}
                </span>
              </div>
              <div className="actions">
                <button type="button" className="btn btn--secondary btn--compact" onClick={() => setEditing(l)} aria-label={`Edit ${l.name}`}>
                  <Icon name="edit" size={20} />
                  Edit
                </button>
                <button type="button" className="btn btn--danger-ghost btn--compact" onClick={() => setRemoving(l)} aria-label={`Remove ${l.name}`}>
                  <Icon name="trash" size={20} />
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing ? <EditLora lora={editing} categories={categories} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? 'this add-on'}?`}
        description="Nobody can use it any more, and its file is deleted from this computer."
        confirmLabel="Remove"
        onConfirm={async () => {
          if (removing) await del.mutateAsync(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

function numberOr(v: string, fallback: number): number {
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

function EditLora({ lora, categories, onClose }: { lora: AdminLora; categories: LoraCategory[]; onClose: () => void }): ReactElement {
  const patch = usePatchLora();
  const [name, setName] = useState(lora.name);
  const [triggers, setTriggers] = useState(lora.triggerTokens.join(', '));
  const [def, setDef] = useState(String(lora.defaultWeight));
  const [min, setMin] = useState(String(lora.minWeight));
  const [max, setMax] = useState(String(lora.maxWeight));
  const [categoryId, setCategoryId] = useState(lora.category?.id ?? '');
  const [isAdult, setAdult] = useState(lora.isAdult);
  const [enabled, setEnabled] = useState(lora.enabled);
  const [whenToUse, setWhenToUse] = useState(lora.whenToUse ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    const lo = numberOr(min, lora.minWeight);
    const hi = numberOr(max, lora.maxWeight);
    const d = numberOr(def, lora.defaultWeight);
    if (lo > hi || d < lo || d > hi) {
      setError('The usual weight must be between the lowest and the highest.');
      return;
    }
    setError(null);
    try {
      await patch.mutateAsync({
        id: lora.id,
        body: {
          name: name.trim() || lora.name,
          triggerTokens: triggers.split(',').map((t) => t.trim()).filter(Boolean),
          defaultWeight: d,
          minWeight: lo,
          maxWeight: hi,
          categoryId: categoryId || null,
          isAdult,
          enabled,
          whenToUse: whenToUse.trim() || null,
        },
      });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Dialog open title={`Edit ${lora.name}`} onClose={onClose} testId="lora-dialog">
      <form
        className="img-admin__form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
        <TextField label="Trigger words" hint="Added to the prompt when it is used; separate them with commas." value={triggers} onChange={(e) => setTriggers(e.target.value)} />
        <div className="img-admin__weights">
          <TextField label="Usual weight" type="number" step="0.05" min={-5} max={5} value={def} onChange={(e) => setDef(e.target.value)} />
          <TextField label="Lowest" type="number" step="0.05" min={-5} max={5} value={min} onChange={(e) => setMin(e.target.value)} />
          <TextField label="Highest" type="number" step="0.05" min={-5} max={5} value={max} onChange={(e) => setMax(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="lora-category" className="field__label">
            Category
          </label>
          <select id="lora-category" className="input" value={categoryId} onChange={(e) => setCategoryId(e.target.value)}>
            <option value="">None</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <TextField label="When to use it" hint="A line that helps Hearth pick it for a prompt." value={whenToUse} onChange={(e) => setWhenToUse(e.target.value)} maxLength={500} />
        <Switch label="For adults only" hint="Cannot be allowed for members whose adult add-ons are blocked." checked={isAdult} onCheckedChange={setAdult} />
        <Switch label="On" hint="Off: nobody can use it, and it is kept." checked={enabled} onCheckedChange={setEnabled} />
        <DialogActions busy={patch.isPending} error={error} onCancel={onClose} label="Save" icon="check" />
      </form>
    </Dialog>
  );
}

function Categories({ categories }: { categories: LoraCategory[] }): ReactElement {
  const add = useAddCategory();
  const patch = usePatchCategory();
  const del = useDeleteCategory();
  const [name, setName] = useState('');
  const [removing, setRemoving] = useState<LoraCategory | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="card img-admin__card">
      <h2 className="img-h2 img-admin__h2">Categories</h2>
      <p className="muted">Group add-ons, and allow a whole group for a member at once.</p>
      {categories.length > 0 ? (
        <ul className="img-admin__list" aria-label="Categories">
          {categories.map((c) => (
            <li key={c.id} className="img-admin__item">
              <div className="img-admin__item-text">
                <Switch
                  label={c.name}
                  hint={`${c.loraCount} ${c.loraCount === 1 ? 'add-on' : 'add-ons'}${c.hasAdult ? ', some for adults only' : ''}`}
                  checked={c.enabled}
                  onCheckedChange={(on) => patch.mutate({ id: c.id, body: { enabled: on } }, { onError: (err) => setError(errorMessage(err)) })}
                />
              </div>
              <button type="button" className="btn btn--danger-ghost btn--compact" onClick={() => setRemoving(c)} aria-label={`Remove the category ${c.name}`}>
                <Icon name="trash" size={20} />
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <form
        className="img-admin__inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!name.trim()) return;
          setError(null);
          add.mutate(name.trim(), { onSuccess: () => setName(''), onError: (err) => setError(errorMessage(err)) });
        }}
      >
        <TextField label="New category" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="Cartoon characters" />
        <button type="submit" className="btn btn--secondary" disabled={!name.trim() || add.isPending}>
          <Icon name="plus" size={20} />
          Add
        </button>
      </form>
      <FormError message={error} />
      <ConfirmDialog
        open={removing !== null}
        title={`Remove the category ${removing?.name ?? ''}?`}
        description="Its add-ons stay, without a category. Members it was allowed for lose what it gave them."
        confirmLabel="Remove"
        onConfirm={async () => {
          if (removing) await del.mutateAsync(removing.id);
          setRemoving(null);
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}
