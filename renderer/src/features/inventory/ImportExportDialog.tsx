// Moving the inventory in and out: export everything as JSON (Hearth's own) or as a Homebox CSV
// (its HB.* columns), and import a Homebox CSV, with the rows that were skipped and why.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { FilePicker } from '../../ui/FilePicker';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { UploadProgress } from '../../ui/UploadProgress';
import { useImport, type ImportResult } from './queries';
import { API } from './types';

export function ImportExportDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<ImportResult | null>(null);
  const imp = useImport();
  const close = () => {
    if (imp.isPending) return;
    setResult(null);
    setFile(null);
    imp.reset();
    onClose();
  };
  const start = () => {
    if (!file) return;
    setResult(null);
    setProgress(0);
    imp.mutate({ file, onProgress: setProgress }, { onSuccess: setResult });
  };
  return (
    <Dialog open={open} title="Import and export" onClose={close} testId="inventory-import-export">
      <h2 className="inv-section__title">Export</h2>
      <p className="muted">A copy of every device, to keep or to move to another program. Photos and manuals stay in Hearth.</p>
      <div className="actions inv-export">
        <a className="btn btn--secondary" href={`${API}/export?format=json`} download>
          <Icon name="download" size={20} />
          Export as JSON
        </a>
        <a className="btn btn--secondary" href={`${API}/export?format=homebox`} download>
          <Icon name="download" size={20} />
          Export for Homebox (CSV)
        </a>
      </div>

      <h2 className="inv-section__title">Import from Homebox</h2>
      <p className="muted">Choose a CSV file exported from Homebox. Each row becomes a device here.</p>
      <FilePicker label="Choose a CSV file" accept=".csv,text/csv" onFile={setFile} testId="import-file" disabled={imp.isPending} />
      {imp.isPending ? (
        <UploadProgress label="Import upload" fraction={progress} />
      ) : null}
      <FormError message={imp.error ? errorMessage(imp.error) : null} />
      {result ? (
        <div className="inv-import-result" role="status" data-testid="import-result">
          <p>
            <Icon name="check" size={20} /> {result.imported === 1 ? '1 device was added.' : `${result.imported} devices were added.`}
          </p>
          {result.skipped.length ? (
            <>
              <p>{result.skipped.length === 1 ? '1 row was skipped:' : `${result.skipped.length} rows were skipped:`}</p>
              <ul className="inv-import-result__skipped">
                {result.skipped.map((s) => (
                  <li key={s.row}>
                    Row {s.row}: {s.reason}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={close} disabled={imp.isPending}>
          Close
        </button>
        <button type="button" className="btn btn--primary" onClick={start} disabled={!file || imp.isPending}>
          {imp.isPending ? <Spinner size={20} /> : <Icon name="upload" size={20} />}
          Import
        </button>
      </div>
    </Dialog>
  );
}
