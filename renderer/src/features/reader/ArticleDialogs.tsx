// The Article's Edit and Delete dialogs, in their own chunk: ArticlePage loads them when one is first
// opened (React.lazy), so an article's text does not wait for dialog and form code.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { DialogActions } from '../../ui/DialogActions';
import { TextField } from '../../ui/TextField';
import { useCollections, useDeleteItem, usePatchItem } from './queries';
import { itemTitle, parseTags, type FullReaderItem, type PatchItemBody } from './types';

/** Saves title, collection and tags; `onSaved` gets the sentence to show ("Moved to Cooking."). */
export function EditDialog({ item, onClose, onSaved }: { item: FullReaderItem; onClose: () => void; onSaved: (message: string) => void }): ReactElement {
  const collections = useCollections();
  const patchItem = usePatchItem(item.id);
  const busy = patchItem.isPending;
  const [title, setTitle] = useState(item.title ?? '');
  const [collection, setCollection] = useState(item.collectionId ?? '');
  const [newName, setNewName] = useState('');
  const [tags, setTags] = useState(item.tags.join(', '));
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();

  const save = (e: FormEvent) => {
    e.preventDefault();
    const body: PatchItemBody = { tags: parseTags(tags) };
    if (title.trim() && title.trim() !== (item.title ?? '')) body.title = title.trim();
    if (collection === '__new__') {
      if (!newName.trim()) {
        setError('Give the new collection a name.');
        return;
      }
      body.collectionName = newName.trim();
    } else body.collectionId = collection || null;
    setError(null);
    const movedTo =
      body.collectionName ?? (body.collectionId && body.collectionId !== item.collectionId ? collections.data?.find((c) => c.id === body.collectionId)?.name : undefined);
    const message = movedTo ? `Moved to ${movedTo}.` : body.collectionId === null && item.collectionId ? 'Saved, and taken out of its collection.' : 'Saved your changes.';
    patchItem.mutate({ body }, { onSuccess: () => onSaved(message), onError: (err) => setError(errorMessage(err)) });
  };

  return (
    <Dialog open title="Edit" onClose={() => (busy ? undefined : onClose())} testId="edit-item">
      <form onSubmit={save} noValidate>
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} />
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Collection
          </label>
          <select id={selectId} className="input" value={collection} onChange={(e) => setCollection(e.target.value)} disabled={!collections.data && !collections.error}>
            <option value="">No collection</option>
            {(collections.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value="__new__">New collection…</option>
          </select>
          {collections.error ? <span className="field__error">Collections did not load: {errorMessage(collections.error)}</span> : null}
        </div>
        {collection === '__new__' ? <TextField label="New collection name" value={newName} onChange={(e) => setNewName(e.target.value)} maxLength={100} /> : null}
        <TextField label="Tags" hint="Separate tags with commas" value={tags} onChange={(e) => setTags(e.target.value)} autoCapitalize="off" />
        <DialogActions busy={busy} error={error} onCancel={onClose} label="Save" icon="check" />
      </form>
    </Dialog>
  );
}

export function DeleteDialog({ item, onClose, onDeleted }: { item: FullReaderItem | null; onClose: () => void; onDeleted: () => void }): ReactElement {
  const deleteItem = useDeleteItem();
  return (
    <ConfirmDialog
      open={item !== null}
      title="Delete this item?"
      onClose={onClose}
      testId="delete-item"
      description={item ? `“${itemTitle(item)}” and its saved copy leave your Reader. This cannot be undone.` : undefined}
      confirmLabel="Delete"
      onConfirm={async () => {
        if (!item) return;
        await deleteItem.mutateAsync(item.id);
        onDeleted();
      }}
    />
  );
}
