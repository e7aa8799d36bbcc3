// /admin/benchmarks: measures this computer for the household's choices — chat speed per installed chat
// model (words a second and the wait for the first word), seconds per picture step, the data folder's
// disk speed — with live progress while a run goes (GET /api/admin/benchmarks/stream) and the last
// results, which the Features page's hints then use.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { openEventStream, type StreamHandle } from '../../api/sse';
import { Icon, Spinner } from '../../ui/icons';
import { fmt } from '../../ui/locale';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import type { BenchmarkResults, ChatBenchmark, DiskBenchmark, ImageBenchmark } from '../../../../server/modules/benchmarks/schema.js';
import { useBenchmarks, useBenchmarksRefresh, useRunBenchmark } from './queries';
import './benchmarks.css';

interface StreamEvents {
  start: { startedAt: string };
  progress: { part: string; message: string };
  chat: ChatBenchmark;
  image: ImageBenchmark;
  disk: DiskBenchmark;
  done: BenchmarkResults;
  error: { code: string; message: string };
}

const when = (iso: string) => fmt().dateTime(iso);

export function BenchmarksAdminPage(): ReactElement {
  const results = useBenchmarks();
  const run = useRunBenchmark();
  const refresh = useBenchmarksRefresh();
  const [lines, setLines] = useState<string[]>([]);
  const [following, setFollowing] = useState(false);
  const [streamError, setStreamError] = useState<string | null>(null);
  const stream = useRef<StreamHandle | null>(null);

  const follow = () => {
    stream.current?.close();
    setLines([]);
    setStreamError(null);
    setFollowing(true);
    stream.current = openEventStream<StreamEvents>(
      '/api/admin/benchmarks/stream',
      {
        progress: (e) => setLines((l) => [...l, e.message]),
        chat: (e) => setLines((l) => [...l, e.error ? `${e.model}: ${e.error}` : `${e.model}: about ${Math.round(e.wordsPerSecond ?? 0)} words a second.`]),
        image: (e) => setLines((l) => [...l, e.skipped ?? `Pictures: ${e.secondsPerStep} seconds a step.`]),
        disk: (e) => setLines((l) => [...l, e.error ?? `Disk: writes ${Math.round(e.writeMBps ?? 0)} MB/s, reads ${Math.round(e.readMBps ?? 0)} MB/s.`]),
        done: () => {
          setFollowing(false);
          refresh();
        },
        error: (e) => {
          setFollowing(false);
          setStreamError(e.message);
          refresh();
        },
      },
      { closeOn: ['done', 'error'] },
    );
  };
  // a run already under way (another tab, or before a reload) is followed from its start
  const running = results.data?.running === true;
  useEffect(() => {
    if (running && !stream.current) follow();
  }, [running]); // follow once when a run is found (follow itself changes every render)
  useEffect(() => () => stream.current?.close(), []);

  const start = () => run.mutate(undefined, { onSuccess: follow });
  const busy = following || run.isPending;

  let body: ReactElement;
  if (results.error) body = <ErrorState title="The benchmark results did not load" error={results.error} onRetry={() => void results.refetch()} />;
  else if (!results.data) body = <LoadingState label="Loading the last results…" />;
  else if (!results.data.last) body = <EmptyState title="Not measured yet" icon="flame">Run the benchmark to see how fast this computer answers chat, makes pictures and reads its disk. It takes a minute or two; Hearth stays usable meanwhile.</EmptyState>;
  else body = <Results last={results.data.last} />;

  return (
    <section className="page benchmarks-admin" aria-labelledby="benchmarks-title">
      <PageHeader titleId="benchmarks-title" title="Benchmarks" description="How fast this computer is for what the household uses. The Features page’s hints use these figures." />
      <section className="card benchmarks__card" aria-labelledby="benchmarks-run-title">
        <h2 id="benchmarks-run-title" className="benchmarks__h2">
          Run
        </h2>
        <p className="muted">Each installed chat model answers one short question, one small picture is made when the image engine runs, and a 64 MB file is written and read in the data folder (then removed).</p>
        <div>
          <button type="button" className="btn" onClick={start} disabled={busy} data-testid="benchmark-run">
            {busy ? <Spinner size={20} /> : <Icon name="play" size={20} />}
            {busy ? 'Measuring…' : 'Run the benchmark'}
          </button>
        </div>
        <FormError message={run.error ? errorMessage(run.error) : streamError} />
        {lines.length ? (
          <ol className="benchmarks__progress" aria-live="polite" aria-label="Progress" data-testid="benchmark-progress">
            {lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ol>
        ) : null}
      </section>
      {body}
    </section>
  );
}

function Results({ last }: { last: BenchmarkResults }): ReactElement {
  return (
    <section className="card benchmarks__card" aria-labelledby="benchmarks-results-title" data-testid="benchmark-results">
      <h2 id="benchmarks-results-title" className="benchmarks__h2">
        Last results
      </h2>
      <p className="muted">Measured {when(last.finishedAt)}.</p>
      <h3 className="benchmarks__h3">Chat</h3>
      {last.chatSkipped ? (
        <p>{last.chatSkipped}</p>
      ) : (
        <div className="benchmarks__scroll">
          <table className="benchmarks__table">
            <caption className="visually-hidden">Chat speed per model</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Words a second</th>
                <th scope="col">Tokens a second</th>
                <th scope="col">First word after</th>
              </tr>
            </thead>
            <tbody>
              {last.chat.map((c) => (
                <tr key={c.model}>
                  <th scope="row">{c.model}</th>
                  {c.error ? (
                    <td colSpan={3}>{c.error}</td>
                  ) : (
                    <>
                      <td>about {Math.round(c.wordsPerSecond ?? 0)}</td>
                      <td>{c.tokensPerSecond}</td>
                      <td>{c.firstTokenMs !== null ? `${(c.firstTokenMs / 1000).toFixed(1)} s` : '—'}</td>
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3 className="benchmarks__h3">Pictures</h3>
      <p>{last.image.skipped ?? `${last.image.secondsPerStep} seconds a step (a 512 px picture, ${last.image.steps} steps).`}</p>
      <h3 className="benchmarks__h3">Data disk</h3>
      {last.disk.error ? (
        <p>{last.disk.error}</p>
      ) : (
        <p>
          Writes {Math.round(last.disk.writeMBps ?? 0)} MB a second, reads {Math.round(last.disk.readMBps ?? 0)} MB a second.{' '}
          <span className="muted">The read follows the write, so the system’s memory cache may make it look faster than the disk is.</span>
        </p>
      )}
    </section>
  );
}
