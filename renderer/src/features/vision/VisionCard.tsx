// The "Analyze a photo" card on the Tools page: choose or take a photo, choose what to read
// (describe, its text, a receipt, a label, or the member's own JSON schema), see the answer as
// readable fields (a receipt as a table) and copy it as JSON. The household's vision model answers
// on the Hearth computer; nothing is kept. When no vision model can answer, the card says why.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { copyText } from '../../ui/copy-text';
import { FilePicker } from '../../ui/FilePicker';
import { Icon } from '../../ui/icons';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useAnalyzePhoto, useVisionStatus, type VisionTask } from './queries';
import { VisionResult } from './VisionResult';
import './vision.css';

const TASKS: Array<{ id: VisionTask; label: string; hint: string }> = [
  { id: 'describe', label: 'Describe the photo', hint: 'A sentence about the photo and the things in it.' },
  { id: 'text', label: 'Read its text', hint: 'All the printed text, exactly as written.' },
  { id: 'receipt', label: 'Read a receipt', hint: 'The shop, the date, each item with its price, and the total.' },
  { id: 'label', label: 'Read a label or rating plate', hint: 'Product, brand, model, serial number and the other printed fields.' },
  { id: 'schema', label: 'Fill in my own JSON schema', hint: 'Paste a JSON schema (up to 4 KB) and get the photo’s answer in it.' },
];

const SCHEMA_EXAMPLE = '{"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]}';

export function VisionCard(): ReactElement {
  const status = useVisionStatus();
  const analyze = useAnalyzePhoto();
  const [task, setTask] = useState<VisionTask>('describe');
  const [file, setFile] = useState<File | null>(null);
  const [schema, setSchema] = useState('');
  const [copied, setCopied] = useState<string | null>(null);
  const chosen = TASKS.find((t) => t.id === task)!;

  const header = (
    <>
      <h2 id="vision-title">Analyze a photo</h2>
      <p className="muted">The household’s vision model looks at a photo on this computer and answers in fields you can copy. The photo is not kept.</p>
    </>
  );
  if (!status.data) {
    return (
      <section className="card tools__card vision" aria-labelledby="vision-title">
        {header}
        {status.error ? <ErrorState title="Photo analysis did not load" error={status.error} onRetry={() => void status.refetch()} /> : <LoadingState label="Checking the vision model…" />}
      </section>
    );
  }
  if (status.data.unavailable) {
    return (
      <section className="card tools__card vision" aria-labelledby="vision-title" data-testid="vision">
        {header}
        <p data-testid="vision-unavailable">
          <Icon name="warn" size={18} /> {status.data.unavailable}
        </p>
      </section>
    );
  }

  const run = () => {
    if (!file) return;
    setCopied(null);
    analyze.mutate({ file, task, schema });
  };
  const answer = analyze.data && !analyze.isPending ? analyze.data : null;
  const json = answer ? JSON.stringify(answer.result, null, 2) : '';
  return (
    <section className="card tools__card vision" aria-labelledby="vision-title" data-testid="vision">
      {header}
      <div className="field">
        <label htmlFor="vision-task" className="field__label">
          What to read
        </label>
        <select id="vision-task" className="input" value={task} onChange={(e) => setTask(e.target.value as VisionTask)} disabled={analyze.isPending}>
          {TASKS.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
        <p className="field__hint muted">{chosen.hint}</p>
      </div>
      {task === 'schema' ? (
        <div className="field">
          <label htmlFor="vision-schema" className="field__label">
            Your JSON schema
          </label>
          <textarea id="vision-schema" className="input vision__schema" rows={5} value={schema} onChange={(e) => setSchema(e.target.value)} placeholder={SCHEMA_EXAMPLE} spellCheck={false} disabled={analyze.isPending} />
        </div>
      ) : null}
      <FilePicker label="Choose or take a photo" accept="image/*" onFile={setFile} disabled={analyze.isPending} hint="A JPEG, PNG, WebP or HEIC photo up to 15 MB." testId="vision-file" />
      <button type="button" className="btn btn--primary" onClick={run} disabled={!file || analyze.isPending || (task === 'schema' && schema.trim() === '')}>
        <Icon name="eye" size={18} />
        Analyze
      </button>
      {analyze.isPending ? (
        <p role="status" className="muted" data-testid="vision-working">
          Looking at the photo… On this computer that can take a minute.
        </p>
      ) : null}
      <FormError message={analyze.error && !analyze.isPending ? errorMessage(analyze.error) : null} />
      {answer ? (
        <div className="vision__result" data-testid="vision-result" aria-live="polite">
          <h3>What the {answer.model} model read</h3>
          <VisionResult answer={answer} />
          <div className="vision__actions">
            <button type="button" className="btn" onClick={() => void copyText(json).then((ok) => setCopied(ok ? 'Copied the JSON.' : 'This browser did not let Hearth copy. Select the JSON below and copy it.'))}>
              Copy JSON
            </button>
            {copied ? <span role="status">{copied}</span> : null}
          </div>
          <details>
            <summary>Show the JSON</summary>
            <pre className="vision__json">{json}</pre>
          </details>
        </div>
      ) : null}
    </section>
  );
}
