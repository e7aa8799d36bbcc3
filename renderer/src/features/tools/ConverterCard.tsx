// The file converter card: pick a preset and a file, watch it go up and then be converted (a bar
// with the time left when the program tells its progress, the seconds so far when it does not),
// cancel, download the result. Only presets whose program is installed are offered; an admin is
// told what to install for the others.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { openGetStream, type PostStreamHandle } from '../../api/sse';
import { FilePicker } from '../../ui/FilePicker';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { UploadProgress } from '../../ui/UploadProgress';
import { cancelConversion, convertedFileUrl, startConversion, useConverterPresets, type JobEvents, type JobStreamEvents } from './queries';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fraction: number }
  | { kind: 'working'; jobId: string; position: number | null; percent: number | null; etaSeconds: number | null; elapsedSeconds: number }
  | { kind: 'done'; file: JobEvents['done'] }
  | { kind: 'failed'; message: string };

/** "2 GB", "25 MB": the upload cap as a person reads it. */
const capSize = (n: number) => (n >= 1e9 ? `${Number((n / 1e9).toFixed(1))} GB` : `${Math.round(n / 1e6)} MB`);
const seconds = (s: number) => (s < 60 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);

function Working({ phase, onCancel }: { phase: Extract<Phase, { kind: 'working' }>; onCancel: () => void }): ReactElement {
  const line =
    phase.percent !== null
      ? `${Math.round(phase.percent)}% converted${phase.etaSeconds !== null && phase.percent < 100 ? `, about ${seconds(phase.etaSeconds)} left` : ''}`
      : phase.position !== null && phase.position > 0 && phase.elapsedSeconds === 0
        ? `Waiting for ${phase.position} other conversion${phase.position === 1 ? '' : 's'} to finish…`
        : `Converting… ${seconds(phase.elapsedSeconds)} so far (this program does not say how far along it is)`;
  return (
    <div className="converter__working" data-testid="converter-working">
      {phase.percent !== null ? (
        <UploadProgress label="Conversion" fraction={phase.percent / 100} />
      ) : (
        <div className="progress progress--unknown" role="progressbar" aria-label="Conversion" aria-valuetext={line}>
          <div className="progress__bar" />
        </div>
      )}
      <p className="muted" role="status">
        {line}
      </p>
      <button type="button" className="btn btn--ghost btn--compact" onClick={onCancel}>
        <Icon name="close" size={18} />
        Cancel
      </button>
    </div>
  );
}

export function ConverterCard(): ReactElement {
  const presets = useConverterPresets();
  const [presetId, setPresetId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [cancelError, setCancelError] = useState<string | null>(null);
  const upload = useRef<AbortController | null>(null);
  const stream = useRef<PostStreamHandle | null>(null);
  useEffect(
    () => () => {
      upload.current?.abort();
      stream.current?.close();
    },
    [],
  );

  const list = presets.data?.presets ?? [];
  const preset = list.find((p) => p.id === presetId) ?? list[0];
  const busy = phase.kind === 'uploading' || phase.kind === 'working';

  const follow = (jobId: string) => {
    setPhase({ kind: 'working', jobId, position: null, percent: null, etaSeconds: null, elapsedSeconds: 0 });
    const update = (patch: Partial<Extract<Phase, { kind: 'working' }>>) => setPhase((p) => (p.kind === 'working' ? { ...p, ...patch } : p));
    const handle = openGetStream<JobStreamEvents>(
      `/api/converter/jobs/${encodeURIComponent(jobId)}/stream`,
      {
        queued: (d) => update({ position: d.position }),
        progress: (d) => update({ percent: d.percent, etaSeconds: d.etaSeconds, elapsedSeconds: d.elapsedSeconds }),
        done: (d) => setPhase({ kind: 'done', file: d }),
        error: (d) => setPhase(d.code === 'cancelled' ? { kind: 'idle' } : { kind: 'failed', message: d.message }),
      },
      { closeOn: ['done', 'error'] },
    );
    stream.current = handle;
    handle.done.catch((err: unknown) => setPhase((p) => (p.kind === 'working' ? { kind: 'failed', message: errorMessage(err) } : p)));
  };

  const convert = () => {
    if (!file || !preset) return;
    setCancelError(null);
    const controller = new AbortController();
    upload.current = controller;
    setPhase({ kind: 'uploading', fraction: 0 });
    startConversion(file, preset.id, (fraction) => setPhase((p) => (p.kind === 'uploading' ? { kind: 'uploading', fraction } : p)), controller.signal).then(
      ({ jobId }) => follow(jobId),
      (err: unknown) => setPhase(controller.signal.aborted ? { kind: 'idle' } : { kind: 'failed', message: errorMessage(err) }),
    );
  };

  const cancel = () => {
    if (phase.kind === 'uploading') upload.current?.abort();
    if (phase.kind === 'working') cancelConversion(phase.jobId).catch((err: unknown) => setCancelError(errorMessage(err)));
  };

  if (!presets.data) {
    return (
      <section className="card tools__card" aria-labelledby="converter-title">
        <h2 id="converter-title">Convert a file</h2>
        {presets.error ? <ErrorState title="The converter did not load" error={presets.error} onRetry={() => void presets.refetch()} /> : <LoadingState label="Loading the converter…" />}
      </section>
    );
  }
  const missing = presets.data.missing;
  return (
    <section className="card tools__card converter" aria-labelledby="converter-title" data-testid="converter">
      <h2 id="converter-title">Convert a file</h2>
      <p className="muted">Make a photo, video, recording or document into something every phone can open. Only you can download what you convert; it is kept for a day.</p>
      {list.length === 0 ? (
        <p>No conversion can run on this Hearth computer yet.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="converter-preset" className="field__label">
              Make it
            </label>
            <select id="converter-preset" className="input" value={preset?.id ?? ''} onChange={(e) => setPresetId(e.target.value)} disabled={busy}>
              {list.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.label}
                </option>
              ))}
            </select>
            {preset ? <p className="field__hint muted">{preset.description}</p> : null}
          </div>
          <FilePicker
            label="Choose a file"
            accept={preset?.accept}
            onFile={(f) => {
              setFile(f);
              if (phase.kind === 'failed') setPhase({ kind: 'idle' });
            }}
            disabled={busy}
            hint={`Up to ${capSize(presets.data.maxUploadBytes)}.`}
            testId="converter-file"
          />
          {!busy ? (
            <button type="button" className={phase.kind === 'done' ? 'btn' : 'btn btn--primary'} onClick={convert} disabled={!file}>
              <Icon name="refresh" size={18} />
              Convert
            </button>
          ) : null}
          {phase.kind === 'uploading' ? (
            <div className="converter__working">
              <UploadProgress label="Upload" fraction={phase.fraction} detail="Sending the file to Hearth…" />
              <button type="button" className="btn btn--ghost btn--compact" onClick={cancel}>
                <Icon name="close" size={18} />
                Cancel
              </button>
            </div>
          ) : null}
          {phase.kind === 'working' ? <Working phase={phase} onCancel={cancel} /> : null}
          {phase.kind === 'done' ? (
            <div className="converter__done" data-testid="converter-done">
              <p role="status">
                <Icon name="check" size={18} /> {phase.file.name} is ready ({formatBytes(phase.file.bytes)}).
              </p>
              <a className="btn btn--primary" href={convertedFileUrl(phase.file.fileId)} download={phase.file.name}>
                <Icon name="download" size={18} />
                Download {phase.file.name}
              </a>
            </div>
          ) : null}
          <FormError message={phase.kind === 'failed' ? phase.message : cancelError} />
        </>
      )}
      {missing.length > 0 ? (
        <div className="converter__missing" data-testid="converter-missing">
          <p>
            <Icon name="warn" size={18} /> Some conversions are not offered because their program is not installed on the Hearth computer. Install the package, then restart Hearth:
          </p>
          <ul>
            {missing.map((m) => (
              <li key={m.tool}>
                {m.presets.join(', ')}: <strong>{m.install}</strong>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
