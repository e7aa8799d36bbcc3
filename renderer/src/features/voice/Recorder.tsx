// Recording a memo with the microphone, which browsers allow only on a secure page (HTTPS or this
// computer itself). On a plain http address the button is replaced by why and what to do;
// uploading a file works everywhere.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { canRecord, MIC_REFUSED, useRecorder } from './useRecorder';

export function Recorder({ onRecorded, disabled }: { onRecorded: (file: File) => void; disabled: boolean }): ReactElement {
  const mic = useRecorder();
  const [problem, setProblem] = useState<string | null>(null);
  if (!canRecord()) {
    return (
      <p className="memos__note" data-testid="mic-unavailable">
        <Icon name="lock" size={18} />
        <span>
          Recording needs a secure connection, and this page was opened over plain http. Open Hearth at its secure address (<Link to="/trust">how to trust it on this device</Link>), or upload a recording made with another app below.
        </span>
      </p>
    );
  }
  const toggle = async () => {
    setProblem(null);
    if (mic.recording) {
      const file = await mic.stop();
      if (file) onRecorded(file);
      return;
    }
    await mic.start().catch(() => setProblem(MIC_REFUSED));
  };
  return (
    <div className="memos__recorder">
      <button type="button" className={`btn ${mic.recording ? 'btn--danger' : 'btn--primary'}`} disabled={disabled && !mic.recording} onClick={() => void toggle()} data-testid="record-button">
        <Icon name={mic.recording ? 'pause' : 'plus'} size={20} />
        {mic.recording ? 'Stop and save' : 'Record a memo'}
      </button>
      {mic.recording ? (
        <span role="status" className="muted">
          Recording… up to 2 minutes.
        </span>
      ) : null}
      {problem ? (
        <p role="alert" className="memos__problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
