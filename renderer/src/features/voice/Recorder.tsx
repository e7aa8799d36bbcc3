// Recording a memo with the microphone (MediaRecorder), which browsers allow only on a secure page
// (HTTPS or this computer itself). On a plain http address the button is replaced by why and what to
// do; uploading a file works everywhere.
import { useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';

export function canRecord(): boolean {
  return window.isSecureContext && typeof MediaRecorder !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
}

export function Recorder({ onRecorded, disabled }: { onRecorded: (file: File) => void; disabled: boolean }): ReactElement {
  const [recording, setRecording] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const rec = useRef<MediaRecorder | null>(null);
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
  const start = async () => {
    setProblem(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const r = new MediaRecorder(stream);
      const parts: Blob[] = [];
      r.ondataavailable = (e) => parts.push(e.data);
      r.onstop = () => {
        for (const t of stream.getTracks()) t.stop();
        const type = r.mimeType || 'audio/webm';
        onRecorded(new File(parts, `memo.${type.includes('mp4') ? 'm4a' : type.includes('ogg') ? 'ogg' : 'webm'}`, { type }));
      };
      r.start();
      rec.current = r;
      setRecording(true);
    } catch {
      setProblem('The microphone could not be opened. Allow this page to use the microphone in the browser’s settings, then try again.');
    }
  };
  const stop = () => {
    rec.current?.stop();
    rec.current = null;
    setRecording(false);
  };
  return (
    <div className="memos__recorder">
      <button type="button" className={`btn ${recording ? 'btn--danger' : 'btn--primary'}`} disabled={disabled && !recording} onClick={() => (recording ? stop() : void start())} data-testid="record-button">
        <Icon name={recording ? 'pause' : 'plus'} size={20} />
        {recording ? 'Stop and save' : 'Record a memo'}
      </button>
      {recording ? (
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
