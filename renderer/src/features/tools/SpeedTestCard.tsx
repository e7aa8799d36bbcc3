// The speed test card: measures ping, jitter, download and upload between this device and Hearth
// (the home network, not the internet), says what that means for this device, and keeps the result.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { useSaveSpeedtestResult, useSpeedtestResults } from './queries';
import { deviceName, measureSpeed, verdict, type SpeedPhase, type SpeedResult } from './speed-measure';
import { fmt as format } from '../../ui/locale';

const PHASE_WORDS: Record<SpeedPhase, string> = { ping: 'Measuring how quickly Hearth replies…', download: 'Measuring download…', upload: 'Measuring upload…' };
const fmt = (n: number) => format().number(n, { maximumFractionDigits: n >= 100 ? 0 : 1, minimumFractionDigits: n >= 100 ? 0 : 1 });

function Figures({ r }: { r: SpeedResult }): ReactElement {
  return (
    <dl className="speedtest__figures" data-testid="speedtest-figures">
      <div>
        <dt>Download</dt>
        <dd>{fmt(r.downloadMbps)} Mbit/s</dd>
      </div>
      <div>
        <dt>Upload</dt>
        <dd>{fmt(r.uploadMbps)} Mbit/s</dd>
      </div>
      <div>
        <dt>Ping</dt>
        <dd>{fmt(r.pingMs)} ms</dd>
      </div>
      <div>
        <dt>Jitter</dt>
        <dd>{fmt(r.jitterMs)} ms</dd>
      </div>
    </dl>
  );
}

export function SpeedTestCard(): ReactElement {
  const results = useSpeedtestResults();
  const save = useSaveSpeedtestResult();
  const [running, setRunning] = useState<{ phase: SpeedPhase; mbps: number | null } | null>(null);
  const [result, setResult] = useState<SpeedResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = () => {
    const c = new AbortController();
    controller.current = c;
    setError(null);
    setResult(null);
    setRunning({ phase: 'ping', mbps: null });
    measureSpeed({ signal: c.signal, onPhase: (phase, mbps) => setRunning({ phase, mbps }) }).then(
      (r) => {
        setRunning(null);
        setResult(r);
        save.mutate({ ...r, device: deviceName() });
      },
      () => {
        setRunning(null);
        if (!c.signal.aborted) setError('The speed test stopped before it finished. Check that this device is on the home network, then try again.');
      },
    );
  };

  const last = results.data?.results[0];
  return (
    <section className="card tools__card speedtest" aria-labelledby="speedtest-title" data-testid="speedtest">
      <h2 id="speedtest-title">Network speed to Hearth</h2>
      <p className="muted">How fast this device reaches the Hearth computer over your home network (not the internet): what decides whether videos from Hearth play smoothly here.</p>
      {running ? (
        <div className="speedtest__running">
          <p role="status">
            <Spinner size={18} /> {PHASE_WORDS[running.phase]}
            {running.mbps !== null ? ` ${fmt(running.mbps)} Mbit/s` : ''}
          </p>
          <button type="button" className="btn btn--ghost btn--compact" onClick={() => controller.current?.abort()}>
            <Icon name="close" size={18} />
            Stop
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn--primary" onClick={start}>
          <Icon name="play" size={18} />
          {result ? 'Test again' : 'Start the speed test'}
        </button>
      )}
      {result ? (
        <div className="speedtest__result" data-testid="speedtest-result">
          <Figures r={result} />
          <p className="speedtest__verdict">{verdict(result)}</p>
          {save.isSuccess ? <p className="muted">Saved as this {deviceName()}’s result.</p> : null}
          <FormError message={save.error ? `The result was not saved: ${errorMessage(save.error)}` : null} />
        </div>
      ) : last && !running ? (
        <p className="muted" data-testid="speedtest-last">
          Last test on {last.device}, {format().dateTime(last.createdAt)}: {fmt(last.downloadMbps)} Mbit/s down, {fmt(last.uploadMbps)} Mbit/s up.
        </p>
      ) : null}
      <FormError message={error} />
    </section>
  );
}
