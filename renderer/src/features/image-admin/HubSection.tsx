// Find add-ons on the model hub (admin): the hub's API key (kept on the server; the page only learns
// whether one is set), a search, and Import for a result, which downloads it through Hearth's
// download queue with its progress shown here (POST /civitai-import streams it). Shown only when
// this Hearth has the hub routes (a 404 for the key means it has not).
import { useState, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { openPostStream } from '../../api/sse';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { formatBytes } from '../../ui/format';
import { hubSearch, useHubKey, useSetHubKey, useLorasChanged } from './queries';
import { hubImportApi, type HubResult } from './types';

/** What the import stream may say: progress while it downloads, then done or error. */
interface HubImportEvents {
  progress: { bytesDone?: number; bytesTotal?: number | null; state?: string };
  done: { lora?: { id: string; name: string } };
  error: { code: string; message: string };
}

type ImportState = { phase: 'running'; done: number; total: number | null } | { phase: 'done' } | { phase: 'failed'; error: string };

export function HubSection(): ReactElement | null {
  const key = useHubKey();
  if (key.error instanceof ApiError && key.error.status === 404) return null;
  return (
    <div className="card img-admin__card" data-testid="hub-section">
      <h2 className="img-h2 img-admin__h2">Find add-ons online</h2>
      {key.data ? <HubKey set={key.data.set} /> : null}
      <HubSearch />
    </div>
  );
}

function HubKey({ set }: { set: boolean }): ReactElement {
  const save = useSetHubKey();
  const [value, setValue] = useState('');
  const [editing, setEditing] = useState(!set);
  if (!editing)
    return (
      <p className="img-admin__row">
        <span>The model hub key is saved on this computer.</span>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => setEditing(true)}>
          Change it
        </button>
      </p>
    );
  return (
    <form
      className="img-admin__inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(value.trim(), { onSuccess: () => { setValue(''); setEditing(false); } });
      }}
    >
      <TextField label="Model hub key" hint="Some downloads need it. It stays on this computer and is never shown again." type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="btn btn--secondary" disabled={value.trim().length < 8 || save.isPending}>
        Save key
      </button>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </form>
  );
}

function HubSearch(): ReactElement {
  const lorasChanged = useLorasChanged();
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<HubResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [imports, setImports] = useState<Record<string, ImportState>>({});

  const search = async () => {
    setBusy(true);
    setError(null);
    try {
      setResults((await hubSearch(query.trim())).results);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const startImport = (r: HubResult) => {
    const set = (s: ImportState) => setImports((m) => ({ ...m, [r.externalId]: s }));
    set({ phase: 'running', done: 0, total: r.bytes });
    const h = openPostStream<HubImportEvents>(
      hubImportApi,
      { externalId: r.externalId },
      {
        progress: (p) => set({ phase: 'running', done: p.bytesDone ?? 0, total: p.bytesTotal ?? r.bytes }),
        done: () => set({ phase: 'done' }),
        error: (e) => set({ phase: 'failed', error: e.message }),
      },
      { closeOn: ['done', 'error'] },
    );
    h.done
      .catch((err: unknown) => set({ phase: 'failed', error: errorMessage(err) }))
      .finally(() => {
        void lorasChanged();
      });
  };

  return (
    <>
      <form
        className="img-admin__inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (query.trim()) void search();
        }}
      >
        <TextField label="Search the model hub" value={query} onChange={(e) => setQuery(e.target.value)} maxLength={200} placeholder="watercolour, cartoon fox…" />
        <button type="submit" className="btn btn--secondary" disabled={!query.trim() || busy}>
          {busy ? <Spinner size={18} /> : <Icon name="search" size={20} />}
          Search
        </button>
      </form>
      <FormError message={error} />
      {results?.length === 0 ? <p className="muted">Nothing found. Try other words.</p> : null}
      {results && results.length > 0 ? (
        <ul className="img-admin__list" aria-label="Found on the model hub" data-testid="hub-results">
          {results.map((r) => {
            const s = imports[r.externalId];
            return (
              <li key={r.externalId} className="img-admin__item">
                <div className="img-admin__item-text">
                  <span className="img-admin__item-name">{r.name}</span>
                  <span className="img-admin__badges">
                    {r.isAdult ? <span className="badge badge--warn">Adults only</span> : null}
                    {r.bytes ? <span className="badge">{formatBytes(r.bytes)}</span> : null}
                  </span>
                  {r.description ? <span className="muted">{r.description}</span> : null}
                  {s?.phase === 'running' ? (
                    <div className="progress" role="progressbar" aria-label={`Downloading ${r.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={s.total ? Math.round((s.done / s.total) * 100) : 0}>
                      <div className="progress__bar" style={{ width: `${s.total ? Math.round((s.done / s.total) * 100) : 0}%` }} />
                    </div>
                  ) : null}
                  {s?.phase === 'failed' ? <FormError message={s.error} /> : null}
                </div>
                {r.importedAs || s?.phase === 'done' ? (
                  <span className="badge badge--ok">Added</span>
                ) : (
                  <button type="button" className="btn btn--secondary btn--compact" disabled={s?.phase === 'running'} onClick={() => startImport(r)} aria-label={`Add ${r.name}`}>
                    {s?.phase === 'running' ? <Spinner size={18} /> : <Icon name="download" size={20} />}
                    {s?.phase === 'running' ? 'Adding…' : 'Add'}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
    </>
  );
}
