// Image engine (admin): where the household's ComfyUI is installed and which Python runs it, the
// picture model (checkpoint), the engine's state in words, what each kind of picture work needs when
// it is not available (the pipeline's reason and the missing pieces), the launch Hearth chose for this
// computer's hardware, and the last lines the engine wrote. Saving (PUT /api/admin/image-engine)
// starts or restarts the engine; the page follows it while it starts. Before its first start (and
// after ComfyUI or a node pack changed) Hearth installs the engine's Python packages: the page says
// so with what it is doing now and the log's newest lines, and offers Try again when it failed.
// While no folder is set it says once what Hearth installed (the Image engine feature only downloads
// source archives) and what the admin does; what a capability lacks is listed with one sentence on
// how to add it and a Restart button (never "from the Image engine page": this is that page).
import { useEffect, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { CREATE_HREF, PIPELINE_TEXT } from '../image';
import { useEngineAdmin, useEngineLogs, useRetryEngine, useSaveEngine } from './queries';
import { ENGINE_STATE_TEXT, type EngineAdminResponse } from './types';
import '../image/image.css';
import './image-admin.css';

export function EnginePage(): ReactElement {
  const engine = useEngineAdmin();
  return (
    <section className="page img-admin" aria-labelledby="img-engine-title">
      <PageHeader titleId="img-engine-title" title="Image engine" description="The program that draws and edits pictures on this computer (ComfyUI), and what it can do." />
      <p className="img-admin__links">
        <Link to="/admin/image-loras" className="btn btn--ghost btn--compact">
          <Icon name="sparkles" size={20} />
          Add-ons (LoRAs)
        </Link>
        <Link to="/admin/image-members" className="btn btn--ghost btn--compact">
          <Icon name="members" size={20} />
          Who may use what
        </Link>
      </p>
      {!engine.data ? (
        engine.error ? (
          <ErrorState title="The image engine settings did not load" error={engine.error} onRetry={() => void engine.refetch()} />
        ) : (
          <LoadingState label="Loading the image engine settings…" />
        )
      ) : (
        <>
          <EngineState data={engine.data} />
          <EngineForm key={`${engine.data.config.installDir ?? ''}|${engine.data.config.python ?? ''}|${engine.data.config.checkpoint ?? ''}`} data={engine.data} />
          <Pipelines data={engine.data} />
          <Logs follow={engine.data.status.state === 'installing'} state={engine.data.status.state} />
        </>
      )}
    </section>
  );
}

function EngineState({ data }: { data: EngineAdminResponse }): ReactElement {
  const { status, launch } = data;
  const tone = status.state === 'ready' ? 'ok' : status.state === 'failed' ? 'error' : status.configured ? 'info' : 'warn';
  return (
    <div className="card img-admin__card" data-testid="engine-state">
      <h2 className="img-h2 img-admin__h2">State</h2>
      <p>
        <span className={`badge badge--${tone}`}>{status.configured ? ENGINE_STATE_TEXT[status.state] : 'Not set up'}</span>{' '}
        {status.state === 'warming' || status.state === 'installing' ? <Spinner size={18} label="Starting" /> : null}
      </p>
      {status.state === 'installing' ? <Installing progress={status.progress} /> : null}
      {status.error && status.configured ? (
        <div className="banner banner--error" role="alert">
          <Icon name="warn" size={22} />
          <div>
            <p>{status.error}</p>
            {status.state === 'failed' ? <RetryButton /> : null}
          </div>
        </div>
      ) : null}
      {!status.configured ? <WhatHearthInstalls downloaded={data.downloaded} /> : null}
      <dl className="facts img-admin__facts">
        <div className="facts__row">
          <dt>Picture model</dt>
          <dd>{status.checkpoint ?? 'None chosen yet'}</dd>
        </div>
        <div className="facts__row">
          <dt>Pictures being made</dt>
          <dd>
            {status.queue.running} now, {status.queue.waiting} waiting
          </dd>
        </div>
        {data.config.externalUrl ? (
          <div className="facts__row">
            <dt>Engine address</dt>
            <dd>{data.config.externalUrl} (set when Hearth was started; Hearth uses that engine and does not start its own)</dd>
          </div>
        ) : null}
        {launch ? (
          <div className="facts__row">
            <dt>Runs on</dt>
            <dd>
              {launch.target} ({launch.dtype}){launch.note ? `. ${launch.note}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      {status.state === 'ready' ? (
        <Link to={CREATE_HREF} className="btn btn--secondary btn--compact">
          <Icon name="sparkles" size={20} />
          Try it: create a picture
        </Link>
      ) : null}
    </div>
  );
}

/**
 * Said once, while no engine folder is set: what Hearth installed (the Image engine feature only
 * downloads ComfyUI's and a node pack's source archives and keeps them) and what the admin does.
 */
function WhatHearthInstalls({ downloaded }: { downloaded: EngineAdminResponse['downloaded'] }): ReactElement {
  const next = 'Hearth then installs the Python packages ComfyUI needs and starts it when someone wants a picture.';
  if (downloaded.length === 0) {
    return (
      <p className="muted" data-testid="engine-what-hearth-installs">
        Hearth does not install ComfyUI by itself. Install ComfyUI on this computer, then enter its folder under Set up below. {next}
      </p>
    );
  }
  return (
    <div data-testid="engine-what-hearth-installs">
      <p>Hearth downloaded these for the image engine and keeps them as archives; it does not unpack or install them:</p>
      <ul className="img-admin__downloads">
        {downloaded.map((d) => (
          <li key={d.path}>
            {d.label}: <span className="img-admin__path">{d.path}</span>
          </li>
        ))}
      </ul>
      <p className="muted">
        Unpack ComfyUI into a folder of your choice and each node pack into that folder’s custom_nodes folder, then enter the ComfyUI folder under Set up below. {next}
      </p>
    </div>
  );
}

/** The engine's Python packages being installed: what Hearth does now and the log's newest lines. */
function Installing({ progress }: { progress: string | null }): ReactElement {
  const logs = useEngineLogs(true);
  const tail = logs.data?.slice(-6) ?? [];
  return (
    <div className="img-admin__installing" role="status" data-testid="engine-installing">
      <p className="img-admin__installing-title">Setting up the image engine (this can take a while)…</p>
      <p className="muted">{progress ?? 'Getting ready…'} Hearth installs the Python packages ComfyUI and its node packs need, then starts it. You can leave this page.</p>
      {tail.length > 0 ? (
        <pre className="img-admin__log img-admin__log--tail" tabIndex={0} aria-label="The newest lines of the setup">
          {tail.join('\n')}
        </pre>
      ) : null}
    </div>
  );
}

/** Restarts the engine (it reads its custom nodes and models again); the page follows the state. */
function RestartButton(): ReactElement {
  const retry = useRetryEngine();
  return (
    <>
      <button type="button" className="btn btn--secondary btn--compact" onClick={() => retry.mutate()} disabled={retry.isPending} data-testid="engine-restart">
        {retry.isPending ? <Spinner size={18} /> : <Icon name="refresh" size={20} />}
        Restart the engine
      </button>
      <FormError message={retry.error ? errorMessage(retry.error) : null} />
    </>
  );
}

function RetryButton(): ReactElement {
  const retry = useRetryEngine();
  return (
    <>
      <button type="button" className="btn btn--secondary btn--compact" onClick={() => retry.mutate()} disabled={retry.isPending} data-testid="engine-retry">
        {retry.isPending ? <Spinner size={18} /> : <Icon name="refresh" size={20} />}
        Try again
      </button>
      <FormError message={retry.error ? errorMessage(retry.error) : null} />
    </>
  );
}

function EngineForm({ data }: { data: EngineAdminResponse }): ReactElement {
  const save = useSaveEngine();
  const toast = useToast();
  const [installDir, setInstallDir] = useState(data.config.installDir ?? '');
  const [python, setPython] = useState(data.config.python ?? '');
  const [checkpoint, setCheckpoint] = useState(data.config.checkpoint ?? '');
  const external = data.config.externalUrl !== null;
  const submit = () => {
    save.mutate(
      {
        ...(external ? {} : { installDir: installDir.trim() || null, python: python.trim() || null }),
        checkpoint: checkpoint.trim() || null,
      },
      { onSuccess: () => toast('Saved. The image engine starts with these settings.') },
    );
  };
  return (
    <form
      className="card img-admin__card img-admin__form"
      aria-labelledby="engine-setup-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="engine-setup-title" className="img-h2 img-admin__h2">
        Set up
      </h2>
      {external ? null : (
        <>
          <TextField label="ComfyUI folder" hint="The folder on this computer that holds ComfyUI’s main.py." placeholder="/home/alex/ComfyUI" value={installDir} onChange={(e) => setInstallDir(e.target.value)} autoComplete="off" spellCheck={false} />
          <TextField label="Python (optional)" hint="The Python (3.10 or newer) Hearth sets up the engine’s own packages with. Leave empty to use python3." placeholder="/usr/bin/python3" value={python} onChange={(e) => setPython(e.target.value)} autoComplete="off" spellCheck={false} />
        </>
      )}
      {data.config.checkpoints.length > 0 ? (
        <div className="field">
          <label htmlFor="engine-checkpoint" className="field__label">
            Picture model
          </label>
          <select id="engine-checkpoint" className="input" value={checkpoint} onChange={(e) => setCheckpoint(e.target.value)}>
            <option value="">Choose one…</option>
            {data.config.checkpoints.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
      ) : (
        <TextField label="Picture model" hint="The checkpoint file in ComfyUI’s models/checkpoints folder. The list of models shows here once the engine runs." placeholder="sdxl_lightning_4step.safetensors" value={checkpoint} onChange={(e) => setCheckpoint(e.target.value)} autoComplete="off" spellCheck={false} />
      )}
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending} data-testid="engine-save">
          {save.isPending ? <Spinner size={18} /> : <Icon name="check" size={20} />}
          Save and start
        </button>
      </div>
    </form>
  );
}

function Pipelines({ data }: { data: EngineAdminResponse }): ReactElement {
  const { pipelines, state, configured } = data.status;
  const running = configured && state === 'ready';
  const external = data.config.externalUrl !== null;
  const lacking = pipelines.some((p) => !p.available && p.missing.length > 0);
  return (
    <div className="card img-admin__card" data-testid="engine-pipelines">
      <h2 className="img-h2 img-admin__h2">What it can do</h2>
      {!running ? (
        <p className="muted">{configured ? 'Hearth checks what the engine can do once it runs.' : 'Hearth checks what the engine can do once its folder is set up and it runs.'}</p>
      ) : null}
      {running && lacking ? (
        <div className="img-admin__how" data-testid="engine-how-to-add">
          <p className="muted">
            {external
              ? 'Hearth does not add node packs or model files. Put what a row needs in that engine’s custom_nodes or models folder and restart it; Hearth reads what it can do again when it comes back.'
              : 'Hearth does not add node packs or model files. Put what a row needs in the ComfyUI folder (node packs in custom_nodes, model files in models), then restart the engine here.'}
          </p>
          {external ? null : <RestartButton />}
        </div>
      ) : null}
      {pipelines.length === 0 ? null : (
        <ul className="img-admin__pipelines">
          {pipelines.map((p) => (
            <li key={p.pipeline} className="img-admin__pipeline">
              <Icon name={p.available ? 'check' : 'warn'} size={20} className={p.available ? 'img-admin__ok' : 'img-admin__warn'} />
              <div>
                <p className="img-admin__pipeline-name">
                  {PIPELINE_TEXT[p.pipeline]}
                  <span className="visually-hidden">{p.available ? ': available' : ': not available'}</span>
                </p>
                {running && !p.available && p.missing.length > 0 ? (
                  <p className="img-admin__missing">
                    Needs: <span>{p.missing.join(', ')}</span>
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Logs({ follow, state }: { follow: boolean; state: EngineAdminResponse['status']['state'] }): ReactElement {
  const logs = useEngineLogs(follow);
  const { refetch } = logs;
  // a setup or start that just ended (failed, say) wrote its last lines: read them
  useEffect(() => {
    void refetch();
  }, [state, refetch]);
  return (
    <div className="card img-admin__card">
      <div className="img-admin__row">
        <h2 className="img-h2 img-admin__h2">What the engine wrote last</h2>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => void logs.refetch()} disabled={logs.isFetching}>
          <Icon name="refresh" size={20} />
          Read again
        </button>
      </div>
      {!logs.data ? (
        logs.error ? <ErrorState title="The engine’s log did not load" error={logs.error} onRetry={() => void logs.refetch()} /> : <LoadingState label="Loading the log…" />
      ) : logs.data.length === 0 ? (
        <p className="muted">Nothing yet: the engine has not run.</p>
      ) : (
        <pre className="img-admin__log" tabIndex={0} aria-label="The engine’s last lines" data-testid="engine-log">
          {logs.data.join('\n')}
        </pre>
      )}
    </div>
  );
}
