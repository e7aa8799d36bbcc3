// Edit: a picture from this device (upload) or from the member's own pictures, then one button per
// operation (remove or blur the background, make bigger, enhance, auto colour, adjust by hand with
// sliders, restore faces, restore an old photo). Each button says why when it cannot work (the
// engine's state, or the pipeline's own reason from GET /status). The edit streams like a creation
// (POST /edit, multipart) and ends with Before and After side by side; the result is in My pictures.
import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { FilePicker } from '../../ui/FilePicker';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { ArtifactView, availabilityOf, EngineNotice, ImageSubnav, JobEndBanner, JobView } from './parts';
import { useHistory, useImageStatus } from './queries';
import { artifactTitle, EDIT_OPS, OP_ORDER, OP_TEXT, type Artifact, type EditOp } from './types';
import { useImageJob } from './useImageJob';
import './image.css';

type Source = { kind: 'file'; file: File; url: string } | { kind: 'artifact'; artifact: Artifact };

const ADJUST_FIELDS = [
  { key: 'brightness', label: 'Brightness', min: -100, max: 100 },
  { key: 'contrast', label: 'Contrast', min: -100, max: 100 },
  { key: 'saturation', label: 'Colour', min: -100, max: 100 },
  { key: 'warmth', label: 'Warmth', min: -100, max: 100 },
] as const;
type AdjustKey = (typeof ADJUST_FIELDS)[number]['key'];

export function EditPage(): ReactElement {
  const status = useImageStatus();
  const [params, setParams] = useSearchParams();
  const history = useHistory(null);
  const job = useImageJob();
  const [source, setSource] = useState<Source | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const [adjust, setAdjust] = useState<Record<AdjustKey, number>>({ brightness: 0, contrast: 0, saturation: 0, warmth: 0 });
  const [lastOp, setLastOp] = useState<EditOp | null>(null);

  const pictures = useMemo(() => history.data?.pages.flatMap((p) => p.items) ?? [], [history.data]);
  const sourceId = params.get('source');

  // ?source=<id> (from Create or My pictures) picks that picture
  useEffect(() => {
    if (!sourceId || (source?.kind === 'artifact' && source.artifact.id === sourceId)) return;
    const found = pictures.find((p) => p.id === sourceId);
    if (found) setSource({ kind: 'artifact', artifact: found });
  }, [sourceId, pictures, source]);

  // an uploaded file's preview address is let go when it is replaced
  useEffect(() => () => (source?.kind === 'file' ? URL.revokeObjectURL(source.url) : undefined), [source]);

  const choose = (next: Source | null) => {
    job.reset();
    setAdjusting(false);
    setSource(next);
    const p = new URLSearchParams(params);
    if (next?.kind === 'artifact') p.set('source', next.artifact.id);
    else p.delete('source');
    setParams(p, { replace: true });
  };

  const run = (op: EditOp) => {
    if (!source) return;
    const form = new FormData();
    form.append('op', op);
    if (op === 'upscale') form.append('scale', '2');
    if (op === 'adjust') for (const f of ADJUST_FIELDS) form.append(f.key, String(adjust[f.key]));
    if (source.kind === 'artifact') form.append('sourceId', source.artifact.id);
    else form.append('file', source.file, source.file.name);
    setLastOp(op);
    job.edit(form);
  };

  if (!status.data) {
    return (
      <Frame>
        {status.error ? <ErrorState title="The picture maker did not answer" error={status.error} onRetry={() => void status.refetch()} /> : <LoadingState label="Looking at the picture maker…" />}
      </Frame>
    );
  }
  const beforeUrl = source ? (source.kind === 'file' ? source.url : source.artifact.url) : null;
  const beforeAlt = source ? (source.kind === 'file' ? `Your picture ${source.file.name}` : artifactTitle(source.artifact)) : '';

  return (
    <Frame>
      <EngineNotice status={status.data}>Auto colour and Adjust work without it.</EngineNotice>

      <div className="img-source">
        <h2 className="img-h2">1. Choose a picture</h2>
        <FilePicker
          label="Upload a picture"
          accept="image/png,image/jpeg,image/webp"
          hint="A PNG, JPEG or WebP photo from this device."
          onFile={(f) => (f ? choose({ kind: 'file', file: f, url: URL.createObjectURL(f) }) : undefined)}
          testId="edit-upload"
        />
        {pictures.length > 0 ? (
          <details className="img-pick" open={!source && pictures.length > 0}>
            <summary>Or pick one of your pictures</summary>
            <ul className="img-grid img-grid--small" aria-label="Your pictures">
              {pictures.slice(0, 24).map((p) => (
                <li key={p.id}>
                  <button type="button" className="img-tile" aria-pressed={source?.kind === 'artifact' && source.artifact.id === p.id} onClick={() => choose({ kind: 'artifact', artifact: p })}>
                    <img src={p.url} alt={artifactTitle(p)} loading="lazy" />
                  </button>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </div>

      {source && beforeUrl ? (
        <>
          <h2 className="img-h2">2. Choose what to do</h2>
          <ul className="img-ops" aria-label="What to do">
            {OP_ORDER.map((op) => {
              // the server's availability decides: auto colour and adjust run in Hearth, with no engine
              const a = availabilityOf(status.data, EDIT_OPS[op]);
              const disabled = job.running || !a.available;
              return (
                <li key={op} className="img-op">
                  <button
                    type="button"
                    className="btn btn--secondary img-op__btn"
                    disabled={disabled}
                    aria-describedby={`op-${op}-hint`}
                    aria-expanded={op === 'adjust' ? adjusting : undefined}
                    onClick={() => (op === 'adjust' ? setAdjusting((x) => !x) : run(op))}
                    data-testid={`op-${op}`}
                  >
                    {job.running && lastOp === op ? <Spinner size={18} /> : null}
                    {OP_TEXT[op].label}
                  </button>
                  <span id={`op-${op}-hint`} className={`img-op__hint${!disabled || job.running ? '' : ' img-op__hint--why'}`}>
                    {a.available ? OP_TEXT[op].hint : a.reason}
                  </span>
                </li>
              );
            })}
          </ul>

          {adjusting && !job.running ? (
            <fieldset className="img-fieldset img-adjust" data-testid="adjust-panel">
              <legend className="field__label">Adjust by hand</legend>
              {ADJUST_FIELDS.map((f) => (
                <div key={f.key} className="img-slider">
                  <label htmlFor={`adj-${f.key}`}>{f.label}</label>
                  <input id={`adj-${f.key}`} type="range" min={f.min} max={f.max} step={5} value={adjust[f.key]} onChange={(e) => setAdjust((a) => ({ ...a, [f.key]: Number(e.target.value) }))} />
                  <output htmlFor={`adj-${f.key}`}>{adjust[f.key] > 0 ? `+${adjust[f.key]}` : adjust[f.key]}</output>
                </div>
              ))}
              <div className="actions">
                <button type="button" className="btn btn--primary" onClick={() => run('adjust')} data-testid="adjust-apply">
                  Apply
                </button>
                <button type="button" className="btn btn--ghost" onClick={() => setAdjust({ brightness: 0, contrast: 0, saturation: 0, warmth: 0 })}>
                  Back to start
                </button>
              </div>
            </fieldset>
          ) : null}

          <JobView job={job} what="edit" original={<img className="img-job__preview" src={beforeUrl} alt={beforeAlt} />} />
          <JobEndBanner job={job} stopped="Stopped. Your picture is as it was." />

          {job.state.phase === 'done' && job.state.artifact ? (
            <div className="img-compare" data-testid="before-after">
              <figure className="img-compare__side">
                <img src={beforeUrl} alt={`Before: ${beforeAlt}`} />
                <figcaption>Before</figcaption>
              </figure>
              <div className="img-compare__side">
                <ArtifactView artifact={job.state.artifact} onDeleted={job.reset}>
                  <button type="button" className="btn btn--secondary btn--compact" onClick={() => job.state.artifact && choose({ kind: 'artifact', artifact: job.state.artifact })}>
                    <Icon name="edit" size={20} />
                    Keep editing this
                  </button>
                </ArtifactView>
                <p className="muted img-compare__note">After: saved in My pictures.</p>
              </div>
            </div>
          ) : job.state.phase === 'idle' ? (
            <figure className="img-result">
              <img className="img-result__img" src={beforeUrl} alt={beforeAlt} />
              <figcaption className="img-result__caption">The picture you chose</figcaption>
            </figure>
          ) : null}
        </>
      ) : history.data && pictures.length === 0 && !source ? (
        <EmptyState title="Choose a picture to start">Upload a photo from this device. Pictures you create show up here too.</EmptyState>
      ) : null}
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }): ReactElement {
  return (
    <section className="page img-page" aria-labelledby="img-edit-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="img-edit-title" className="page__title">
            Edit a picture
          </h1>
          <p className="muted page__description">Tidy up a photo or one of your pictures. The original stays as it was.</p>
        </div>
      </div>
      <ImageSubnav />
      {children}
    </section>
  );
}
