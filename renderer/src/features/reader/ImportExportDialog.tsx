// Import a bookmarks file exported from a browser (or Pocket) with live progress: the file is sent as
// it is (text/html) to POST /api/reader/import/html, which answers as an event stream of progress,
// then a summary with the rows it could not read. Export: the live links as a bookmarks file any
// browser imports, or everything (offline articles included) as JSON.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { FilePicker } from '../../ui/FilePicker';
import { useDraft } from '../../ui/useDraft';
import { useUser } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { useImportBookmarks } from './queries';
import type { ImportDone, ImportProgress } from './types';

const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

export function ImportExportDialog({ onClose }: { onClose: () => void }): ReactElement {
  const [file, setFile] = useState<File | null>(null);
  // the import's options are kept as a draft (the file itself cannot be: the browser will not give it back)
  const { id: userId } = useUser();
  const [offlineDraft, setOfflineDraft, clearOffline] = useDraft(userId, 'reader.import.offline');
  const offline = offlineDraft === 'yes';
  const setOffline = (on: boolean) => setOfflineDraft(on ? 'yes' : '');
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [checkError, setCheckError] = useState<string | null>(null);
  const importBookmarks = useImportBookmarks();
  const running = importBookmarks.isPending;
  const result = importBookmarks.data ?? null;
  const error = checkError ?? (importBookmarks.error ? errorMessage(importBookmarks.error) : null);
  // closing the dialog stops listening (the server finishes the import on its own)
  const stop = useRef<AbortController | null>(null);
  useEffect(() => () => stop.current?.abort(), []);

  const start = () => {
    if (!file) {
      setCheckError('Choose the bookmarks file first.');
      return;
    }
    if (file.size > MAX_IMPORT_BYTES) {
      setCheckError('That file is larger than 20 MB, the most Hearth imports at once.');
      return;
    }
    setCheckError(null);
    setProgress(null);
    stop.current = new AbortController();
    importBookmarks.mutate({ file, offline, onProgress: setProgress, signal: stop.current.signal }, { onSuccess: clearOffline });
  };

  const pct = progress && progress.total > 0 ? Math.min(100, Math.floor((progress.processed / progress.total) * 100)) : null;
  return (
    <Dialog open title="Import and export" onClose={() => (running ? undefined : onClose())} testId="import-export">
      <section aria-labelledby="import-title">
        <h3 id="import-title" className="reader-manage__title">
          Import bookmarks
        </h3>
        <p className="muted">
          Export your bookmarks from your browser (or Pocket) as an HTML file, then choose it here. Folders become collections.
        </p>
        <FilePicker
          label="Choose a bookmarks file"
          accept=".html,.htm,text/html"
          hint="An HTML file, up to 20 MB."
          disabled={running}
          testId="bookmarks-file"
          onFile={(f) => {
            setFile(f);
            importBookmarks.reset();
            setCheckError(null);
          }}
        />
        <label className="reader-check">
          <input type="checkbox" checked={offline} onChange={(e) => setOffline(e.target.checked)} disabled={running} />
          <span>Also save a copy of every page for offline reading (slower; leave off for big files)</span>
        </label>
        <div className="actions">
          <button type="button" className="btn btn--primary" onClick={start} disabled={running || !file}>
            {running ? <Spinner size={20} /> : <Icon name="upload" size={20} />}
            {running ? 'Importing…' : 'Import'}
          </button>
        </div>
        {running || progress ? (
          <div className="job-progress reader-import__progress">
            <div
              className={pct === null ? 'progress progress--unknown' : 'progress'}
              role="progressbar"
              aria-label="Import progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct ?? undefined}
            >
              <div className="progress__bar" style={{ width: `${pct ?? 0}%` }} />
            </div>
            <span className="job-progress__text">
              {progress ? `${progress.processed} of ${progress.total} read · ${progress.imported} added · ${progress.skipped} skipped` : 'Reading the file…'}
            </span>
          </div>
        ) : null}
        <FormError message={error} />
        {result ? <ImportSummary result={result} /> : null}
      </section>

      <section aria-labelledby="export-title" className="reader-export">
        <h3 id="export-title" className="reader-manage__title">
          Export
        </h3>
        <p className="muted">Take your Reader with you, or keep a backup.</p>
        <div className="actions">
          <a className="btn btn--secondary" href="/api/reader/export/html" download="hearth-bookmarks.html">
            <Icon name="download" size={20} />
            Bookmarks file (live links)
          </a>
          <a className="btn btn--secondary" href="/api/reader/export/json" download="hearth-reader.json">
            <Icon name="download" size={20} />
            Everything (JSON)
          </a>
        </div>
      </section>
    </Dialog>
  );
}

function ImportSummary({ result }: { result: ImportDone }): ReactElement {
  return (
    <div className="banner banner--info reader-import__done" role="status" data-testid="import-result">
      <Icon name="check" size={22} />
      <div>
        <p className="reader-import__figures">
          Imported {result.imported} {result.imported === 1 ? 'link' : 'links'}
          {result.duplicates ? `, ${result.duplicates} already saved` : ''}
          {result.skipped ? `, skipped ${result.skipped}` : ''}.
        </p>
        {result.collections.length ? <p className="muted">Collections: {result.collections.join(', ')}</p> : null}
        {result.errors.length ? (
          <details className="reader-import__errors">
            <summary>
              {result.errors.length === 1 ? '1 entry could not be read' : `${result.errors.length} entries could not be read`}
            </summary>
            <ul>
              {result.errors.map((e) => (
                <li key={e.index}>
                  <strong>{e.title || e.url || `Entry ${e.index + 1}`}</strong>
                  {e.url && e.title ? <span className="muted"> ({e.url})</span> : null}: {e.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>
    </div>
  );
}
