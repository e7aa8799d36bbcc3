// Household links (admin): links every member sees in their Reader, such as the router page, the
// school portal or the bank. They are live links (no offline copy), grouped by category (Services
// unless chosen otherwise); members can hide one for themselves but not change it.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { DialogActions } from '../../ui/DialogActions';
import { TextField } from '../../ui/TextField';
import { normalizeUrl } from './AddLinkDialog';
import { Favicon } from './parts';
import { useDeleteHouseholdLink, useHouseholdLinks, useSaveHouseholdLink } from './queries';
import './reader.css';
import { hostOf, itemTitle, type ReaderItem } from './types';

const DEFAULT_CATEGORY = 'Services';

export function ReaderAdminPage(): ReactElement {
  const items = useHouseholdLinks();
  const [editing, setEditing] = useState<ReaderItem | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReaderItem | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const list = items.data ?? [];
  const groups = new Map<string, ReaderItem[]>();
  for (const i of [...list].sort((a, b) => a.sortOrder - b.sortOrder || itemTitle(a).localeCompare(itemTitle(b)))) {
    const key = i.category || DEFAULT_CATEGORY;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }

  return (
    <section className="page reader-admin" aria-labelledby="reader-admin-title">
      <div className="page__head">
        <div>
          <h1 id="reader-admin-title" className="page__title">
            Household links
          </h1>
          <p className="muted">
            Links everyone sees in their <Link to="/reader">Reader</Link>. Members can hide one for themselves.
          </p>
        </div>
        <div className="page__actions">
          <button type="button" className="btn btn--primary btn--compact" onClick={() => setEditing('new')}>
            <Icon name="plus" size={20} />
            Add household link
          </button>
        </div>
      </div>
      <p className="notice" role="status" aria-live="polite" data-testid="reader-admin-notice">
        {notice ?? ''}
      </p>

      {!items.data ? (
        items.error ? (
          <ErrorState title="Household links did not load" error={items.error} onRetry={() => void items.refetch()} />
        ) : (
          <LoadingState label="Loading household links…" />
        )
      ) : list.length === 0 ? (
        <EmptyState
          title="No household links yet"
          action={
            <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
              <Icon name="plus" size={20} />
              Add household link
            </button>
          }
        >
          Add the sites everyone at home uses, like the router, the school portal or the electricity account.
        </EmptyState>
      ) : (
        [...groups.entries()].map(([category, rows]) => (
          <section key={category} className="card feature-group" aria-label={category}>
            <h2 className="feature-group__title">{category}</h2>
            <ul className="feature-list">
              {rows.map((i) => (
                <li key={i.id} className="feature" data-testid="global-link">
                  <div className="feature__main">
                    <div className="feature__head">
                      <Favicon src={i.faviconUrl} />
                      <span className="feature__name">{itemTitle(i)}</span>
                    </div>
                    <p className="feature__desc muted reader-admin__url">{i.url}</p>
                  </div>
                  <div className="feature__actions">
                    <button type="button" className="btn btn--ghost btn--compact" aria-label={`Edit ${itemTitle(i)}`} onClick={() => setEditing(i)}>
                      <Icon name="edit" size={20} />
                      <span className="btn__label">Edit</span>
                    </button>
                    <button type="button" className="btn btn--danger-ghost btn--compact" aria-label={`Delete ${itemTitle(i)}`} onClick={() => setDeleting(i)}>
                      <Icon name="trash" size={20} />
                      <span className="btn__label">Delete</span>
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}

      {editing ? (
        <GlobalLinkDialog
          item={editing === 'new' ? null : editing}
          categories={[...new Set([DEFAULT_CATEGORY, ...list.map((i) => i.category).filter(Boolean)])]}
          onClose={() => setEditing(null)}
          onSaved={(msg) => {
            setEditing(null);
            setNotice(msg);
          }}
        />
      ) : null}
      <DeleteGlobalDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(i) => {
          setDeleting(null);
          setNotice(`Deleted ${itemTitle(i)}.`);
        }}
      />
    </section>
  );
}

function GlobalLinkDialog({ item, categories, onClose, onSaved }: { item: ReaderItem | null; categories: string[]; onClose: () => void; onSaved: (message: string) => void }): ReactElement {
  const [url, setUrl] = useState(item?.url ?? '');
  const [title, setTitle] = useState(item?.title ?? '');
  const [category, setCategory] = useState(item?.category ?? DEFAULT_CATEGORY);
  const saveLink = useSaveHouseholdLink();
  const busy = saveLink.isPending;
  const [error, setError] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);

  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setUrlError(null);
    const address = normalizeUrl(url);
    if (!address) {
      setUrlError('Type the address of the site.');
      return;
    }
    const body = { url: address, ...(title.trim() ? { title: title.trim() } : {}), category: category.trim() || DEFAULT_CATEGORY };
    saveLink.mutate(
      { id: item?.id ?? null, body },
      {
        onSuccess: () => onSaved(item ? `Saved ${title.trim() || hostOf(address)}.` : `Added ${title.trim() || hostOf(address)} for everyone.`),
        onError: (err) => {
          const issues = err instanceof ApiError ? err.fieldIssues : {};
          if (err instanceof ApiError && (err.code === 'blocked_url' || issues.url)) setUrlError(issues.url ?? err.message);
          else setError(errorMessage(err));
        },
      },
    );
  };

  return (
    <Dialog open title={item ? 'Edit household link' : 'Add household link'} onClose={() => (busy ? undefined : onClose())} testId="global-link-dialog">
      <form onSubmit={save} noValidate>
        <TextField label="Address" type="url" inputMode="url" autoCapitalize="off" spellCheck={false} value={url} onChange={(e) => setUrl(e.target.value)} error={urlError} required />
        <TextField label="Name (optional)" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} />
        <TextField label="Category" hint="Links are grouped by category." value={category} onChange={(e) => setCategory(e.target.value)} list="reader-categories" maxLength={60} />
        <datalist id="reader-categories">
          {categories.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <DialogActions busy={busy} error={error} onCancel={onClose} label={item ? 'Save' : 'Add'} icon="check" />
      </form>
    </Dialog>
  );
}

function DeleteGlobalDialog({ item, onClose, onDeleted }: { item: ReaderItem | null; onClose: () => void; onDeleted: (i: ReaderItem) => void }): ReactElement {
  const deleteLink = useDeleteHouseholdLink();
  return (
    <ConfirmDialog
      open={item !== null}
      title={item ? `Delete ${itemTitle(item)}?` : 'Delete'}
      onClose={onClose}
      description="It leaves everyone's Reader."
      testId="delete-global-link"
      confirmLabel="Delete"
      onConfirm={async () => {
        if (!item) return;
        await deleteLink.mutateAsync(item.id);
        onDeleted(item);
      }}
    />
  );
}
