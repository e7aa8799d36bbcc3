// Music (/music): describe a short piece, choose its length (5–47 seconds) and, if wanted, a seed;
// the household's image engine makes it (Stable Audio Open) with a step bar from the stream, and the
// finished piece plays here. Below, the member's pieces, newest first, each with its player and
// Delete. When this computer cannot make music the form is shown disabled with what an admin adds.
import { useState, type FormEvent, type ReactElement } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon, Spinner } from '../../ui/icons';
import { fmt } from '../../ui/locale';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { MAX_PROMPT_CHARS, MAX_SECONDS, MIN_SECONDS, useDeletePiece, useMusicHistory, useMusicStatus, type Piece } from './queries';
import { useMusicJob } from './useMusicJob';
import './music.css';

const when = (iso: string) => fmt().dateTime(iso);

function NotInstalled({ reason, missing }: { reason: string | null; missing: string[] }): ReactElement {
  return (
    <div className="music__note" data-testid="music-unavailable" id="music-unavailable">
      <Icon name="warn" size={20} />
      <div>
        <p>{reason ?? 'Music cannot be made on this computer right now.'}</p>
        {missing.length > 0 ? (
          <>
            <p className="muted">What an admin adds:</p>
            <ul className="music__missing">
              {missing.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}

function PieceCard({ piece, onDelete }: { piece: Piece; onDelete: () => void }): ReactElement {
  return (
    <li className="music-piece card" data-testid="music-piece">
      <p className="music-piece__prompt">{piece.prompt}</p>
      <span className="muted music-piece__meta">
        {Math.round(piece.seconds)} seconds · {when(piece.createdAt)} · seed {piece.seed}
      </span>
      <audio className="music-piece__audio" controls preload="none" src={piece.url} aria-label={`Play “${piece.prompt}”`} />
      <div>
        <button type="button" className="btn btn--ghost btn--compact" onClick={onDelete}>
          <Icon name="trash" size={18} />
          Delete
        </button>
      </div>
    </li>
  );
}

export function MusicPage(): ReactElement {
  const status = useMusicStatus();
  const history = useMusicHistory();
  const remove = useDeletePiece();
  const job = useMusicJob();
  const [prompt, setPrompt] = useState('');
  const [seconds, setSeconds] = useState(15);
  const [seed, setSeed] = useState('');
  const [deleting, setDeleting] = useState<Piece | null>(null);
  const available = status.data?.available === true;
  const seedValue = seed.trim() === '' ? undefined : Number(seed);
  const seedBad = seedValue !== undefined && (!Number.isInteger(seedValue) || seedValue < 0 || seedValue > 4_294_967_295);
  const canMake = available && !job.running && prompt.trim() !== '' && !seedBad;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canMake) job.generate({ prompt: prompt.trim(), seconds, ...(seedValue !== undefined ? { seed: seedValue } : {}) });
  };
  const pct = job.state.total ? Math.round((job.state.current / job.state.total) * 100) : 0;

  return (
    <section className="page music" aria-labelledby="music-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="music-title" className="page__title">
            Music
          </h1>
          <p className="muted page__description">Describe a short piece of music and the household computer makes it. Only you can hear your pieces.</p>
        </div>
      </div>

      {!status.data ? (
        status.error ? <ErrorState title="Music did not load" error={status.error} onRetry={() => void status.refetch()} /> : <LoadingState label="Checking whether music can be made here…" />
      ) : (
        <form className="music__form card" onSubmit={submit} aria-label="Make a piece of music" aria-describedby={available ? undefined : 'music-unavailable'}>
          {!available ? <NotInstalled reason={status.data.reason} missing={status.data.missing} /> : null}
          <fieldset className="music__fields" disabled={!available || job.running}>
            <div className="field">
              <label htmlFor="music-prompt" className="field__label">
                What should it sound like?
              </label>
              <textarea id="music-prompt" className="input" rows={3} maxLength={MAX_PROMPT_CHARS} placeholder="Calm piano with soft rain, slow tempo" value={prompt} onChange={(e) => setPrompt(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="music-seconds" className="field__label">
                Length: <output htmlFor="music-seconds">{seconds} seconds</output>
              </label>
              <input id="music-seconds" className="music__slider" type="range" min={MIN_SECONDS} max={MAX_SECONDS} step={1} value={seconds} aria-valuetext={`${seconds} seconds`} onChange={(e) => setSeconds(Number(e.target.value))} />
            </div>
            <div className="field music__seed">
              <label htmlFor="music-seed" className="field__label">
                Seed (optional)
              </label>
              <span id="music-seed-hint" className="field__hint">
                The same words and seed make the same piece again.
              </span>
              <input id="music-seed" className="input" inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value)} aria-describedby={seedBad ? 'music-seed-hint music-seed-error' : 'music-seed-hint'} aria-invalid={seedBad || undefined} />
              {seedBad ? <FormError id="music-seed-error" message="A seed is a whole number from 0 to 4294967295." /> : null}
            </div>
          </fieldset>
          <div className="music__actions">
            <button type="submit" className="btn btn--primary" disabled={!canMake} data-testid="music-make">
              {job.running ? <Spinner size={18} /> : <Icon name="sparkles" size={18} />}
              {job.running ? 'Making…' : 'Make music'}
            </button>
          </div>
          {job.running ? (
            <div className="music__progress" role="status">
              <div className="progress" role="progressbar" aria-label="Making your piece" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
                <div className="progress__bar" style={{ width: `${pct}%` }} />
              </div>
              <span className="muted">
                {job.state.phase === 'starting'
                  ? 'Starting…'
                  : job.state.phase === 'waiting'
                    ? `Waiting for the engine: ${job.state.position === 1 ? 'yours is next' : `${job.state.position ?? 0} pictures or pieces ahead of yours`}.`
                    : `Step ${job.state.current} of ${job.state.total}`}
              </span>
            </div>
          ) : null}
          <FormError message={job.state.phase === 'failed' ? job.state.error : null} />
          {job.state.phase === 'done' && job.state.piece ? (
            <div className="music__result" data-testid="music-result">
              <p>Your piece is ready.</p>
              <audio controls autoPlay={false} src={job.state.piece.url} aria-label="Play your new piece" data-testid="music-result-audio" />
            </div>
          ) : null}
        </form>
      )}

      <h2 className="music__history-title">Your pieces</h2>
      {!history.data ? (
        history.error ? <ErrorState title="Your pieces did not load" error={history.error} onRetry={() => void history.refetch()} /> : <LoadingState label="Loading your pieces…" />
      ) : history.data.pieces.length === 0 ? (
        <EmptyState icon="headphones" title="No pieces yet">
          {history.data.hiddenByContent > 0 ? 'Your adult pieces show once you turn on the adult state.' : 'Describe some music above, and each piece you make is kept here for you.'}
        </EmptyState>
      ) : (
        <>
          {history.data.hiddenByContent > 0 ? <p className="muted">{history.data.hiddenByContent} adult pieces are hidden until you turn on the adult state.</p> : null}
          <ul className="music__list" aria-label="Your pieces">
            {history.data.pieces.map((p) => (
              <PieceCard key={p.id} piece={p} onDelete={() => setDeleting(p)} />
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this piece?"
        description="The piece is deleted for good."
        confirmLabel="Delete piece"
        onConfirm={async () => {
          if (deleting) {
            await remove.mutateAsync(deleting.id);
            // the new piece shown above the form is gone too
            if (job.state.piece?.id === deleting.id) job.reset();
          }
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
