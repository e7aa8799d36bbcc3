// Collections and tags: create a collection (with an optional emoji and colour), rename or delete one
// (its items stay, just without a collection), and the tags in use with how many items carry each.
import { useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { Icon, Spinner } from '../../ui/icons';
import { FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useUser } from '../../app/session';
import { useDraft } from '../../ui/useDraft';
import { CollectionMark } from './parts';
import { useCreateCollection, useDeleteCollection, useRenameCollection } from './queries';
import type { ReaderCollection, ReaderTag } from './types';

export const COLORS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'No colour' },
  { value: '#b54a22', label: 'Terracotta' },
  { value: '#6b7a2f', label: 'Olive' },
  { value: '#a0670c', label: 'Amber' },
  { value: '#7b4a73', label: 'Plum' },
  { value: '#2f7471', label: 'Teal' },
  { value: '#3f5f9a', label: 'Blue' },
];

export function CollectionsDialog({
  collections,
  tags,
  onClose,
  onPickTag,
}: {
  collections: ReaderCollection[] | undefined;
  tags: ReaderTag[] | undefined;
  onClose: () => void;
  onPickTag: (tag: string) => void;
}): ReactElement {
  // what is typed survives the session ending mid-way (kept for this person in this tab until sent)
  const { id: userId } = useUser();
  const [name, setName, clearName] = useDraft(userId, 'reader.collection.new.name');
  const [icon, setIcon, clearIcon] = useDraft(userId, 'reader.collection.new.icon');
  const [color, setColor, clearColor] = useDraft(userId, 'reader.collection.new.color');
  const [nameError, setNameError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ReaderCollection | null>(null);
  const createCollection = useCreateCollection();
  const renameCollection = useRenameCollection();
  const deleteCollection = useDeleteCollection();
  const writes = [createCollection, renameCollection, deleteCollection];
  const pending = writes.some((w) => w.isPending);
  // one message at a time: the last write's failure
  const failed = writes.find((w) => w.isError)?.error;
  const error = failed
    ? failed instanceof ApiError && failed.code === 'collection_exists'
      ? `You already have a collection called “${createCollection.variables?.name ?? ''}”.`
      : errorMessage(failed)
    : null;
  const starting = () => {
    setNotice(null);
    for (const w of writes) w.reset();
  };

  const create = (e: FormEvent) => {
    e.preventDefault();
    setNameError(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Give the collection a name.');
      return;
    }
    starting();
    createCollection.mutate(
      { name: trimmed, ...(icon.trim() ? { icon: icon.trim() } : {}), ...(color ? { color } : {}) },
      {
        onSuccess: () => {
          setNotice(`Added “${trimmed}”.`);
          clearName();
          clearIcon();
          clearColor();
        },
      },
    );
  };

  const rename = (id: string, next: string, done: () => void) => {
    starting();
    renameCollection.mutate(
      { id, name: next },
      {
        onSuccess: () => {
          done();
          setNotice(`Renamed to “${next}”.`);
          setEditing(null);
        },
      },
    );
  };

  const remove = (c: ReaderCollection) => {
    starting();
    deleteCollection.mutate(c.id, {
      onSuccess: () => {
        setNotice(`Deleted “${c.name}”. Its items are still in your Reader.`);
        setDeleting(null);
      },
    });
  };

  return (
    <Dialog open title="Collections and tags" onClose={onClose} testId="manage-collections">
      <p className="notice" role="status" aria-live="polite">
        {notice ?? ''}
      </p>
      <FormError message={error} />
      <h3 className="reader-manage__title">Collections</h3>
      {!collections ? (
        <LoadingState label="Loading collections…" />
      ) : collections.length === 0 ? (
        <p className="muted">No collections yet.</p>
      ) : (
        <ul className="reader-manage__list">
          {collections.map((c) => (
            <li key={c.id} className="reader-manage__row">
              {editing === c.id ? (
                <RenameForm userId={userId} collection={c} pending={pending} onRename={rename} onCancel={() => setEditing(null)} />
              ) : deleting?.id === c.id ? (
                <div className="reader-manage__confirm" role="alert">
                  <span>
                    Delete “{c.name}”? Its {c.itemCount === 1 ? 'item stays' : `${c.itemCount} items stay`} in your Reader.
                  </span>
                  <button type="button" className="btn btn--danger btn--compact" onClick={() => remove(c)} disabled={pending}>
                    {deleteCollection.isPending && deleteCollection.variables === c.id ? <Spinner size={18} /> : <Icon name="trash" size={18} />}
                    Delete
                  </button>
                  <button type="button" className="btn btn--ghost btn--compact" onClick={() => setDeleting(null)}>
                    Keep it
                  </button>
                </div>
              ) : (
                <>
                  <CollectionMark collection={c} />
                  <span className="reader-manage__name">{c.name}</span>
                  <span className="muted">{c.itemCount === 1 ? '1 item' : `${c.itemCount} items`}</span>
                  <span className="reader-manage__actions">
                    <button type="button" className="btn btn--icon btn--ghost" aria-label={`Rename ${c.name}`} onClick={() => setEditing(c.id)}>
                      <Icon name="edit" size={20} />
                    </button>
                    <button type="button" className="btn btn--icon btn--danger-ghost" aria-label={`Delete ${c.name}`} onClick={() => setDeleting(c)}>
                      <Icon name="trash" size={20} />
                    </button>
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}

      <form className="reader-manage__new" onSubmit={create} noValidate>
        <h3 className="reader-manage__title">New collection</h3>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={nameError} maxLength={100} />
        <div className="reader-manage__extras">
          <TextField label="Icon (optional)" hint="One emoji" value={icon} onChange={(e) => setIcon(Array.from(e.target.value).slice(0, 2).join(''))} />
          <div className="field">
            <label className="field__label" htmlFor="new-collection-color">
              Colour (optional)
            </label>
            <select id="new-collection-color" className="input" value={color} onChange={(e) => setColor(e.target.value)}>
              {COLORS.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" className="btn btn--secondary" disabled={pending}>
          {createCollection.isPending ? <Spinner size={20} /> : <Icon name="plus" size={20} />}
          Add collection
        </button>
      </form>

      <h3 className="reader-manage__title">Tags</h3>
      {!tags ? (
        <LoadingState label="Loading tags…" />
      ) : tags.length === 0 ? (
        <p className="muted">No tags yet. Add tags when you save a link or edit an article.</p>
      ) : (
        <ul className="reader-tags" aria-label="Your tags">
          {tags.map((t) => (
            <li key={t.id}>
              <button type="button" className="reader-chip" onClick={() => onPickTag(t.name)} aria-label={`Show items tagged ${t.name} (${t.itemCount})`}>
                #{t.name} <span className="reader-chip__count">{t.itemCount}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

/** Renames one collection; the new name is a draft of its own (kept until saved or cancelled). */
function RenameForm({
  userId,
  collection,
  pending,
  onRename,
  onCancel,
}: {
  userId: string;
  collection: ReaderCollection;
  pending: boolean;
  onRename: (id: string, name: string, done: () => void) => void;
  onCancel: () => void;
}): ReactElement {
  const [name, setName, clear] = useDraft(userId, `reader.collection.rename.${collection.id}`, collection.name);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) onRename(collection.id, name.trim(), clear);
  };
  return (
    <form className="reader-manage__rename" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`rename-${collection.id}`}>
        New name for {collection.name}
      </label>
      <input id={`rename-${collection.id}`} className="input" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoFocus />
      <button type="submit" className="btn btn--primary btn--compact" disabled={pending}>
        Save
      </button>
      <button
        type="button"
        className="btn btn--ghost btn--compact"
        onClick={() => {
          clear();
          onCancel();
        }}
      >
        Cancel
      </button>
    </form>
  );
}
