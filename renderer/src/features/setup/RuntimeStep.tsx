// Wizard step 3: is the local model runtime (Ollama) installed and running? Hearth works without
// it, so this step informs and offers "Check again"; it never blocks finishing setup.
import type { ReactElement, Ref } from 'react';
import type { ModelRuntimeStatus } from '../../api/types';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { ErrorState } from '../../ui/StateViews';
import { useRuntimeStatus } from './queries';

export function RuntimeStep({ headingRef, onContinue }: { headingRef: Ref<HTMLHeadingElement>; onContinue: () => void }): ReactElement {
  const status = useRuntimeStatus();
  const checking = status.isFetching; // the first look, or Check again

  return (
    <>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        Check the model runtime
      </h1>
      <p className="muted">Chat and other AI helpers run on this computer through Ollama. Hearth works without it; those features wait until it runs.</p>
      <div className="runtime" aria-live="polite" aria-busy={checking} data-testid="runtime-status">
        {checking ? (
          <div className="runtime__row">
            <Spinner size={24} />
            <span>Looking for Ollama…</span>
          </div>
        ) : status.isError ? (
          <ErrorState title="The check did not finish" error={status.error} />
        ) : (
          status.data ? <RuntimeResult s={status.data} /> : null
        )}
      </div>
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={() => void status.refetch()} disabled={checking}>
          <Icon name="refresh" size={20} />
          Check again
        </button>
        <button type="button" className="btn btn--primary btn--wide" onClick={onContinue}>
          Continue
        </button>
      </div>
    </>
  );
}

function RuntimeResult({ s }: { s: ModelRuntimeStatus }): ReactElement {
  if (s.running) {
    return (
      <div className="runtime__result runtime__result--ok">
        <div className="runtime__row">
          <span className="status-icon status-icon--ok">
            <Icon name="check" size={22} />
          </span>
          <strong>Ollama{s.version ? ` ${s.version}` : ''} is running</strong>
        </div>
        <p className="muted runtime__url">{s.url}</p>
        {s.models.length === 0 ? (
          <p>No models are installed yet. Hearth can fetch the ones it needs later.</p>
        ) : (
          <>
            <p>
              {s.models.length} model{s.models.length === 1 ? '' : 's'} installed:
            </p>
            <ul className="runtime__models">
              {s.models.map((m) => (
                <li key={m.name}>
                  <span>{m.name}</span>
                  {m.sizeBytes !== null ? <span className="muted">{formatBytes(m.sizeBytes)}</span> : null}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    );
  }
  return (
    <div className="runtime__result runtime__result--warn">
      <div className="runtime__row">
        <span className="status-icon status-icon--warn">
          <Icon name="warn" size={22} />
        </span>
        <strong>{s.installed ? 'Ollama is installed but not running' : 'Ollama was not found'}</strong>
      </div>
      <p>
        {s.installed
          ? 'Start Ollama on this computer, then press Check again.'
          : 'You can install it later from ollama.com and press Check again, or continue without it.'}
      </p>
      {s.error ? <p className="muted runtime__error">{s.error}</p> : null}
    </div>
  );
}
