// Add a link: the address is checked as you type (GET /api/reader/probe, debounced) so the sheet can
// say whether Hearth reaches it and whether the site lets itself be shown inside Hearth; then save it
// offline (Hearth keeps a copy, the default) or as a live link, with an optional collection and tags.
import { useEffect, useId, useState, type FormEvent, type ReactElement } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { Icon, Spinner } from '../../ui/icons';
import { DialogActions } from '../../ui/DialogActions';
import { TextField } from '../../ui/TextField';
import { useDraft } from '../../ui/useDraft';
import { useUser } from '../../app/session';
import { useDebounced } from '../../ui/hooks';
import { useAddLink } from './queries';
import { parseTags, type CreateItemBody, type ItemType, type ProbeResult, type ReaderCollection, type ReaderItem } from './types';

const NEW_COLLECTION = '__new__';

/** Adds https:// to "example.org/page" so the probe and the server see a full address. */
export function normalizeUrl(text: string): string {
  const t = text.trim();
  if (!t) return '';
  return /^[a-z][a-z0-9+.-]*:/i.test(t) ? t : `https://${t}`;
}

const looksLikeUrl = (t: string) => {
  try {
    const u = new URL(t);
    return Boolean(u.hostname) && u.hostname.length > 1;
  } catch {
    return false;
  }
};

type Probe =
  | { state: 'idle' }
  | { state: 'checking'; url: string }
  | { state: 'done'; url: string; result: ProbeResult }
  | { state: 'refused'; url: string; message: string }
  | { state: 'error'; url: string; message: string };

/** Asks the server about an address: reachable, framesBlocked, or refused (blocked_url) with its reason. */
async function runProbe(url: string, signal: AbortSignal): Promise<Probe> {
  try {
    const result = await api.get<ProbeResult>(`/api/reader/probe?url=${encodeURIComponent(url)}`, { signal });
    return { state: 'done', url, result };
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'blocked_url' || err.status === 400)) return { state: 'refused', url, message: err.message };
    return { state: 'error', url, message: errorMessage(err) };
  }
}

export function AddLinkDialog({
  collections,
  onClose,
  onSaved,
}: {
  collections: ReaderCollection[];
  onClose: () => void;
  onSaved: (item: ReaderItem) => void;
}): ReactElement {
  // what was typed survives the session ending mid-way (kept for this person in this tab until sent or cancelled)
  const { id: userId } = useUser();
  const [url, setUrl, clearUrl] = useDraft(userId, 'reader.add-link.url');
  const [type, setType] = useState<ItemType>('offline');
  const [title, setTitle, clearTitle] = useDraft(userId, 'reader.add-link.title');
  const [collection, setCollection] = useState('');
  const [newCollection, setNewCollection] = useState('');
  const [tags, setTags, clearTags] = useDraft(userId, 'reader.add-link.tags');
  const clearDraft = () => {
    clearUrl();
    clearTitle();
    clearTags();
  };
  const [probe, setProbe] = useState<Probe>({ state: 'idle' });
  const addLink = useAddLink();
  // asking the probe about the address just before saving, when it has not answered yet
  const [checking, setChecking] = useState(false);
  const busy = checking || addLink.isPending;
  const [error, setError] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const full = useDebounced(normalizeUrl(url), 400);
  const typeName = useId();
  const collectionId = useId();

  useEffect(() => {
    if (!full || !looksLikeUrl(full)) {
      setProbe({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    setProbe({ state: 'checking', url: full });
    void runProbe(full, controller.signal).then((p) => {
      if (!controller.signal.aborted) setProbe(p);
    });
    return () => controller.abort();
  }, [full]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const address = normalizeUrl(url);
    setError(null);
    setUrlError(null);
    if (!address) {
      setUrlError('Paste or type the address of a page.');
      return;
    }
    if (!looksLikeUrl(address)) {
      setUrlError('That does not look like a web address. It should look like https://example.org/page.');
      return;
    }
    if (collection === NEW_COLLECTION && !newCollection.trim()) {
      setError('Give the new collection a name, or pick another one.');
      return;
    }
    setChecking(true);
    // an address the server refuses (a device on the home network, a non-web address) is not saved:
    // use the probe's answer for this address, or ask now (briefly) if it has not answered yet
    let checked: Probe = probe;
    if (!('url' in checked) || checked.url !== address || checked.state === 'checking') {
      checked = await runProbe(address, AbortSignal.timeout(5000));
      setProbe(checked);
    }
    setChecking(false);
    // a live link is only a link (nothing is fetched to read it), so it may point anywhere the
    // server's own rules allow; an offline copy of a refused address cannot be made
    if (checked.state === 'refused' && type === 'offline') {
      setUrlError(`${checked.message} Hearth can't save a copy of it; you can keep it as a live link instead.`);
      return;
    }
    const body: CreateItemBody = { url: address, type };
    if (title.trim()) body.title = title.trim();
    if (collection === NEW_COLLECTION) body.collectionName = newCollection.trim();
    else if (collection) body.collectionId = collection;
    const tagList = parseTags(tags);
    if (tagList.length) body.tags = tagList;
    addLink.mutate(body, {
      onSuccess: (item) => {
        clearDraft();
        onSaved(item);
      },
      onError: (err) => {
        const issues = err instanceof ApiError ? err.fieldIssues : {};
        if (err instanceof ApiError && (err.code === 'blocked_url' || issues.url)) setUrlError(issues.url ?? err.message);
        else setError(errorMessage(err));
      },
    });
  };

  const result = probe.state === 'done' ? probe.result : null;
  return (
    <Dialog open title="Add a link" onClose={() => (busy ? undefined : onClose())} testId="add-link-dialog">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Address"
          type="url"
          inputMode="url"
          autoComplete="url"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="https://…"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setUrlError(null);
          }}
          error={urlError ?? (probe.state === 'refused' && type === 'offline' && probe.url === normalizeUrl(url) ? probe.message : null)}
          autoFocus
          required
        />
        <div className="reader-probe" aria-live="polite" data-testid="probe">
          {probe.state === 'refused' && type === 'live' ? (
            <p className="reader-probe__line reader-probe__line--warn">
              <Icon name="warn" size={16} /> {probe.message} Hearth won&rsquo;t open it for you, but you can keep the link.
            </p>
          ) : probe.state === 'checking' ? (
            <p className="reader-probe__line muted">
              <Spinner size={16} /> Checking the address…
            </p>
          ) : probe.state === 'error' ? (
            <p className="reader-probe__line muted">
              <Icon name="warn" size={16} /> Could not check it ({probe.message}). You can still save it.
            </p>
          ) : result ? (
            <>
              {result.reachable ? (
                <p className="reader-probe__line reader-probe__line--ok">
                  <Icon name="check" size={16} /> Hearth can reach it{result.title ? `: ${result.title}` : '.'}
                </p>
              ) : (
                <p className="reader-probe__line reader-probe__line--warn">
                  <Icon name="warn" size={16} /> Hearth could not reach this page right now. You can still save it; Hearth tries again when it saves a copy.
                </p>
              )}
              {result.framesBlocked ? (
                <p className="reader-probe__line muted">
                  <Icon name="external" size={16} /> This site can&rsquo;t be shown inside Hearth; it will open in a new tab.
                  {type === 'offline' ? ' The offline copy still reads inside Hearth.' : ''}
                </p>
              ) : result.reachable ? (
                <p className="reader-probe__line muted">
                  <Icon name="check" size={16} /> It can also be shown inside Hearth.
                </p>
              ) : null}
            </>
          ) : null}
        </div>

        <fieldset className="field">
          <legend className="field__label">Keep it as</legend>
          <div className="role-options">
            <label className={`role-option${type === 'offline' ? ' is-selected' : ''}`}>
              <input type="radio" name={typeName} value="offline" checked={type === 'offline'} onChange={() => setType('offline')} />
              <span>
                <span className="role-option__label">Save offline</span>
                <span className="role-option__hint">Hearth keeps a copy of the article and its pictures, readable without internet.</span>
              </span>
            </label>
            <label className={`role-option${type === 'live' ? ' is-selected' : ''}`}>
              <input type="radio" name={typeName} value="live" checked={type === 'live'} onChange={() => setType('live')} />
              <span>
                <span className="role-option__label">Keep as live link</span>
                <span className="role-option__hint">Just the link, for a site you visit often. It opens the page as it is now.</span>
              </span>
            </label>
          </div>
        </fieldset>

        <TextField label="Title (optional)" hint="Hearth uses the page's own title if you leave this empty." value={title} onChange={(e) => setTitle(e.target.value)} maxLength={300} />

        <div className="field">
          <label className="field__label" htmlFor={collectionId}>
            Collection (optional)
          </label>
          <select id={collectionId} className="input" value={collection} onChange={(e) => setCollection(e.target.value)}>
            <option value="">No collection</option>
            {collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value={NEW_COLLECTION}>New collection…</option>
          </select>
        </div>
        {collection === NEW_COLLECTION ? (
          <TextField label="New collection name" value={newCollection} onChange={(e) => setNewCollection(e.target.value)} maxLength={100} />
        ) : null}
        <TextField label="Tags (optional)" hint="Separate tags with commas, e.g. recipes, weekend" value={tags} onChange={(e) => setTags(e.target.value)} autoCapitalize="off" />

        <DialogActions
          busy={busy}
          error={error}
          onCancel={() => {
            clearDraft();
            onClose();
          }}
          label={type === 'offline' ? 'Save offline' : 'Save link'} icon="plus" />
      </form>
    </Dialog>
  );
}
