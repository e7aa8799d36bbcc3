// Memos (/memos): the member's voice memos, newest first, each with its recording and transcript
// (written in the background); record one (on a secure page) or upload a recording, find one by
// its words, rename one, delete one.
import { useMemo, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FilePicker } from '../../ui/FilePicker';
import { Icon, Spinner } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { UploadProgress } from '../../ui/UploadProgress';
import { useDeleteMemo, useMemos, useRenameMemo, useUploadMemo, useVoiceConfig, type Memo } from './queries';
import { Recorder } from './Recorder';
import './voice.css';
import { fmt } from '../../ui/locale';

const when = (iso: string) => fmt().dateTime(iso);
const length = (s: number | null) => (s === null ? '' : `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`);

/** The memo's name, and renaming it in place (an empty name goes back to the date). */
function MemoTitle({ memo, title }: { memo: Memo; title: string }): ReactElement {
  const rename = useRenameMemo();
  const [editing, setEditing] = useState<string | null>(null);
  if (editing === null) {
    return (
      <div className="memo__name">
        <h2 className="memo__title">{title}</h2>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => setEditing(memo.title ?? '')} aria-label={`Rename ${title}`}>
          <Icon name="edit" size={18} />
          Rename
        </button>
      </div>
    );
  }
  const save = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate({ id: memo.id, title: editing.trim() || null }, { onSuccess: () => setEditing(null) });
  };
  return (
    <form className="memo__rename" onSubmit={save} aria-label={`Rename ${title}`}>
      <TextField label="Name" maxLength={200} value={editing} onChange={(e) => setEditing(e.target.value)} hint="Leave it empty to name the memo by its date." autoFocus error={rename.error ? errorMessage(rename.error) : null} />
      <div className="memo__actions">
        <button type="submit" className="btn btn--primary btn--compact" disabled={rename.isPending}>
          {rename.isPending ? <Spinner size={18} /> : <Icon name="check" size={18} />}
          Save name
        </button>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => setEditing(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function MemoCard({ memo, onDelete }: { memo: Memo; onDelete: () => void }): ReactElement {
  const title = memo.title ?? `Memo of ${when(memo.createdAt)}`;
  return (
    <li className="memo card" data-testid="memo">
      <div className="memo__head">
        <MemoTitle memo={memo} title={title} />
        <span className="muted memo__meta">
          {memo.title ? `${when(memo.createdAt)} · ` : ''}
          {length(memo.durationSeconds)}
        </span>
      </div>
      <audio className="memo__audio" controls preload="none" src={`/api/voice/memos/${encodeURIComponent(memo.id)}/audio`} aria-label={`Play ${title}`} />
      {memo.status === 'transcribing' ? (
        <p className="muted" role="status">
          Writing down what was said…
        </p>
      ) : memo.status === 'failed' ? (
        <p className="memo__failed">{memo.error ?? 'This memo could not be written down. The recording is kept.'}</p>
      ) : (
        <p className="memo__text" data-testid="memo-text">
          {memo.text || 'No words were heard in this recording.'}
        </p>
      )}
      <div className="memo__actions">
        <button type="button" className="btn btn--ghost btn--compact" onClick={onDelete}>
          <Icon name="trash" size={18} />
          Delete
        </button>
      </div>
    </li>
  );
}

export function MemosPage(): ReactElement {
  const memos = useMemos();
  const config = useVoiceConfig();
  const upload = useUploadMemo();
  const remove = useDeleteMemo();
  const [progress, setProgress] = useState<number | null>(null);
  const [query, setQuery] = useState('');
  const [deleting, setDeleting] = useState<Memo | null>(null);
  const send = (file: File | null) => {
    if (!file) return;
    setProgress(0);
    upload.mutate({ file, onProgress: setProgress }, { onSettled: () => setProgress(null) });
  };
  const shown = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (memos.data?.memos ?? []).filter((m) => words.every((w) => `${m.title ?? ''} ${m.text ?? ''}`.toLowerCase().includes(w)));
  }, [memos.data, query]);
  const sttMissing = config.data ? !config.data.stt : false;
  return (
    <section className="page memos" aria-labelledby="memos-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="memos-title" className="page__title">
            Memos
          </h1>
          <p className="muted page__description">Say it now, find it later: each recording is written down so you can search its words. Only you can see your memos.</p>
        </div>
      </div>
      {sttMissing ? (
        <p className="memos__note" data-testid="stt-missing">
          <Icon name="warn" size={18} />
          <span>This Hearth computer cannot write recordings down yet: an admin needs to install a transcription engine. Your recordings are still kept.</span>
        </p>
      ) : null}
      <div className="memos__add">
        <Recorder onRecorded={send} disabled={upload.isPending} />
        <FilePicker label="Upload a recording" accept="audio/*" onFile={send} disabled={upload.isPending} hint="webm, ogg, mp4/m4a, mp3 or wav, up to 2 minutes." testId="memo-file" showChosen={false} />
        {progress !== null ? <UploadProgress label="Memo upload" fraction={progress} /> : null}
        <FormError message={upload.error ? errorMessage(upload.error) : null} />
      </div>
      {!memos.data ? (
        memos.error ? <ErrorState title="Your memos did not load" error={memos.error} onRetry={() => void memos.refetch()} /> : <LoadingState label="Loading your memos…" />
      ) : memos.data.memos.length === 0 ? (
        <EmptyState icon="play" title="No memos yet">
          Record a memo or upload a recording, and it shows here with its words written down.
        </EmptyState>
      ) : (
        <>
          <SearchField id="memo-search" label="Find a memo" placeholder="Find a memo by its words" value={query} onChange={setQuery} />
          {shown.length === 0 ? (
            <p className="muted">No memo says “{query}”.</p>
          ) : (
            <ul className="memos__list" aria-label="Your memos">
              {shown.map((m) => (
                <MemoCard key={m.id} memo={m} onDelete={() => setDeleting(m)} />
              ))}
            </ul>
          )}
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this memo?"
        description="The recording and its words are deleted for good."
        confirmLabel="Delete memo"
        onConfirm={async () => {
          if (deleting) await remove.mutateAsync(deleting.id);
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
