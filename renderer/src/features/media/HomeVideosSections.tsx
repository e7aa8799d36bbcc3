// Sections of HomeVideosPage.tsx (HomeVideosPage), each drawn by the page.
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Upload, type DetailedError } from 'tus-js-client';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FilePicker } from '../../ui/FilePicker';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { UploadProgress } from '../../ui/UploadProgress';
import { UPLOADS_PATH, useDeleteHomeVideo, useHomeVideos, useSaveSync, useHomeVideosChanged } from './home-videos-queries';
import type { HomeVideo, LibrarySection } from '../../../../server/modules/media-server/schema.js';

/** The types the server takes (schema.ts HOME_VIDEO_TYPES), for the picker. */
export const ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-matroska,video/x-msvideo,video/3gpp,.mp4,.mov,.webm,.mkv,.avi,.3gp';
export const TYPES_TEXT = 'MP4, MOV, WebM, MKV, AVI or 3GP';
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** Tries after a dropped connection before the page offers "Resume". */
export const RETRY_DELAYS_MS = [0, 1_000, 3_000, 5_000, 10_000, 20_000];
/** The cap as the server says it ("8 GB" for 8 GiB), so the hint and a refusal name the same size. */
export const capText = (bytes: number) => (bytes >= 1024 ** 3 ? `${Math.round(bytes / 1024 ** 3)} GB` : formatBytes(bytes));

/**
 * Why there is nothing to do here yet, and who can change it: only an admin makes a member's
 * library (Media storage), so a member is told to ask one and an admin gets the link.
 */
export function NotReady({ section }: { section: LibrarySection | null }): ReactElement {
  const admin = useUser().role === 'admin';
  const fix = admin ? (
    <Link to="/admin/media-storage" className="btn btn--secondary">
      Open Media storage
    </Link>
  ) : undefined;
  if (section && section.status !== 'failed' && section.status !== 'ready') {
    return (
      <EmptyState icon="play" title="Being set up">
        Your private library is being made on the household’s Plex. You can add videos here as soon as it is ready; this page shows it by itself.
      </EmptyState>
    );
  }
  if (section?.status === 'failed') {
    return (
      <EmptyState icon="play" title="Not set up yet" action={fix}>
        Making your private library on Plex did not work.{section.error ? ` ${section.error}` : ''} {admin ? 'Try again on the Media storage page.' : 'An admin can try again on the Media storage page: ask one to have a look.'}
      </EmptyState>
    );
  }
  if (section?.status === 'ready') {
    return (
      <EmptyState icon="play" title="Your videos’ folder cannot be used" action={fix}>
        Hearth cannot write to the folder your videos are kept in just now, so nothing can be added. {admin ? 'Check its storage location on the Media storage page.' : 'An admin can check it on the Media storage page: ask one to have a look.'}
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="play" title="Not set up yet" action={fix}>
      Your home videos need a private library on the household’s Plex, and only an admin can make one. An admin sets up your home videos library on the Media storage page.{' '}
      {admin ? 'You can do that now.' : 'Ask an admin to do it for you.'}
    </EmptyState>
  );
}

export type UploadState =
  | { kind: 'idle' }
  | { kind: 'sending'; name: string; sent: number; total: number }
  | { kind: 'stalled'; name: string; sent: number; total: number; message: string }
  | { kind: 'failed'; message: string };

/** An answer that trying again will not change: a 4xx (but a 409 offset mismatch or 423 lock, which resume) or a full disk. */
export function isRefusal(status: number): boolean {
  return (status >= 400 && status < 500 && status !== 409 && status !== 423) || status === 507;
}

/** The server's sentence from a tus error ({error: {message}}), or a plain one. */
export function tusMessage(err: Error): string {
  const res = (err as DetailedError).originalResponse;
  if (res) {
    try {
      const body = JSON.parse(res.getBody()) as { error?: { message?: string } };
      if (body.error?.message) return body.error.message;
    } catch {
      // not JSON: the status says enough
    }
    const status = res.getStatus();
    if (status === 413) return 'That video is too large.';
    if (status === 415) return `Only videos can be uploaded here (${TYPES_TEXT}).`;
    if (status >= 400 && status < 500) return 'Hearth did not take that video.';
  }
  return 'The connection to Hearth dropped.';
}

export function UploadCard(): ReactElement {
  const list = useHomeVideos();
  const homeVideosChanged = useHomeVideosChanged();
  const toast = useToast();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>({ kind: 'idle' });
  // a new picker after each finished upload, so it no longer names the file just sent
  const [pickerKey, setPickerKey] = useState(0);
  const upload = useRef<Upload | null>(null);
  const maxBytes = list.data?.maxBytes ?? null;
  useEffect(() => () => void upload.current?.abort(), []);

  const start = useCallback(
    (chosen: File) => {
      const name = chosen.name;
      const up = new Upload(chosen, {
        endpoint: UPLOADS_PATH,
        chunkSize: CHUNK_BYTES,
        retryDelays: RETRY_DELAYS_MS,
        // as tus-js-client does by default (a refusal is final, a dropped connection is tried again),
        // and a full disk (507) is a refusal too: trying again would only be refused again
        onShouldRetry: (err) => {
          const status = (err as DetailedError).originalResponse?.getStatus() ?? 0;
          return !isRefusal(status) && navigator.onLine !== false;
        },
        metadata: { filename: name, filetype: chosen.type },
        // a page opened again carries on with the same file's unfinished upload
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onProgress: (sent, total) => setState({ kind: 'sending', name, sent, total }),
        onError: (err) => {
          const res = (err as DetailedError).originalResponse;
          const status = res?.getStatus() ?? 0;
          const message = tusMessage(err);
          // a refusal (4xx, a full disk) is final; a dropped connection can be resumed
          if (isRefusal(status)) setState({ kind: 'failed', message });
          else setState((s) => ({ kind: 'stalled', name, sent: s.kind === 'sending' || s.kind === 'stalled' ? s.sent : 0, total: chosen.size, message }));
        },
        onSuccess: () => {
          upload.current = null;
          setState({ kind: 'idle' });
          setFile(null);
          setPickerKey((k) => k + 1);
          toast(`${name} was added. Plex shows it in a moment.`);
          homeVideosChanged();
        },
      });
      upload.current = up;
      setState({ kind: 'sending', name, sent: 0, total: chosen.size });
      void up
        .findPreviousUploads()
        .then((previous) => {
          if (previous[0]) up.resumeFromPreviousUpload(previous[0]);
          up.start();
        })
        .catch(() => up.start());
    },
    [homeVideosChanged, toast],
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    if (maxBytes !== null && file.size > maxBytes) {
      setState({ kind: 'failed', message: `That video is ${formatBytes(file.size)}; a home video may be up to ${capText(maxBytes)}.` });
      return;
    }
    start(file);
  };

  const busy = state.kind === 'sending';
  const progress = state.kind === 'sending' || state.kind === 'stalled' ? state : null;
  const pct = progress && progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <form className="card home-videos__upload" onSubmit={submit} aria-labelledby="home-videos-upload-title">
      <h2 id="home-videos-upload-title" className="home-videos__h2">
        Add a video
      </h2>
      <FilePicker
        key={pickerKey}
        label="Choose a video"
        accept={ACCEPT}
        testId="home-video-file"
        disabled={busy}
        hint={`${TYPES_TEXT}${maxBytes !== null ? `, up to ${capText(maxBytes)} each` : ''}. A dropped connection carries on where it stopped.`}
        onFile={(f) => {
          setFile(f);
          if (state.kind === 'failed') setState({ kind: 'idle' });
        }}
      />
      {progress ? (
        <UploadProgress
          label={`Uploading ${progress.name}`}
          fraction={pct / 100}
          detail={
            <>
              {pct}% · {formatBytes(progress.sent)} of {formatBytes(progress.total)}
            </>
          }
        />
      ) : null}
      {state.kind === 'stalled' ? (
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>{state.message} Your upload is kept; resume it when you are back online.</span>
        </p>
      ) : null}
      <FormError message={state.kind === 'failed' ? state.message : null} />
      <div className="home-videos__actions">
        {state.kind === 'stalled' ? (
          <button type="button" className="btn btn--primary" onClick={() => { setState({ ...state, kind: 'sending' }); upload.current?.start(); }}>
            Resume
          </button>
        ) : (
          <button type="submit" className="btn btn--primary" disabled={!file || busy}>
            {busy ? <Spinner /> : <Icon name="upload" />} {busy ? 'Uploading…' : 'Upload'}
          </button>
        )}
        {busy || state.kind === 'stalled' ? (
          <button
            type="button"
            className="btn"
            onClick={() => {
              const up = upload.current;
              upload.current = null;
              setState({ kind: 'idle' });
              void up?.abort(true);
            }}
          >
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

export const STATE_TEXT: Record<HomeVideo['state'], string> = { stored: 'Being added to Plex', ready: 'Ready', removed: 'Removed' };

/** The video's picture once Plex has one; a placeholder before, or when the picture does not load. */
export function Thumb({ url }: { url: string | null }): ReactElement {
  const [broken, setBroken] = useState<string | null>(null);
  if (!url || broken === url) {
    return (
      <div className="home-videos__thumb home-videos__thumb--none" aria-hidden="true">
        <Icon name="play" />
      </div>
    );
  }
  return <img className="home-videos__thumb" src={url} alt="" width={96} height={54} loading="lazy" onError={() => setBroken(url)} />;
}

export function VideoList(): ReactElement {
  const list = useHomeVideos();
  const remove = useDeleteHomeVideo();
  const toast = useToast();
  const [deleting, setDeleting] = useState<HomeVideo | null>(null);
  if (!list.data) {
    return list.error ? <ErrorState title="Your videos did not load" error={list.error} onRetry={() => void list.refetch()} /> : <LoadingState label="Loading your videos…" />;
  }
  const videos = list.data.videos.filter((v) => v.state !== 'removed');
  return (
    <div className="home-videos__list-wrap">
      <h2 className="home-videos__h2">Your videos</h2>
      {videos.length === 0 ? (
        <EmptyState icon="play" title="No videos yet">
          Videos you add show here, and in your private library on Plex.
        </EmptyState>
      ) : (
        <>
          <p className="muted">
            {videos.length === 1 ? '1 video' : `${videos.length} videos`} · {formatBytes(list.data.usedBytes)}
          </p>
          <ul className="home-videos__list" data-testid="home-videos-list">
            {videos.map((v) => (
              <li key={v.id} className="card home-videos__item" data-testid="home-video">
                <Thumb url={v.item?.thumbUrl ?? null} />
                <div className="home-videos__text">
                  <span className="home-videos__title">{v.title}</span>
                  <span className="muted">{formatBytes(v.bytes)}</span>
                  <span className={`badge badge--${v.state === 'ready' ? 'ok' : 'warn'}`}>{STATE_TEXT[v.state]}</span>
                </div>
                <button type="button" className="btn btn--ghost" aria-label={`Delete ${v.title}`} onClick={() => setDeleting(v)}>
                  <Icon name="trash" /> Delete
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.title ?? 'this video'}?`}
        description="It goes from Hearth and from your library on Plex. This cannot be undone."
        confirmLabel="Delete"
        onConfirm={async () => {
          if (!deleting) return;
          await remove.mutateAsync(deleting.id);
          toast(`${deleting.title} was deleted.`);
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

export function SyncSettings({ section }: { section: LibrarySection }): ReactElement {
  const save = useSaveSync();
  const toast = useToast();
  const [count, setCount] = useState(String(section.syncRecentCount));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setCount(String(section.syncRecentCount)), [section.syncRecentCount]);
  const patch = (p: Parameters<typeof save.mutate>[0]) =>
    save.mutate(p, {
      onSuccess: () => {
        setError(null);
        toast('Saved.');
      },
      onError: (err) => setError(errorMessage(err)),
    });
  return (
    <div className="card home-videos__sync" aria-labelledby="home-videos-sync-title" role="group">
      <h2 id="home-videos-sync-title" className="home-videos__h2">
        Keeping it tidy
      </h2>
      <Switch
        label="Remove videos after I watch them"
        hint="Hearth deletes its copy of a video you have watched on Plex."
        checked={section.removeWatched}
        disabled={save.isPending}
        onCheckedChange={(removeWatched) => patch({ removeWatched })}
      />
      <Switch
        label="Keep only the newest videos"
        hint="Older videos are deleted once there are more than the number below."
        checked={section.syncMode === 'recent'}
        disabled={save.isPending}
        onCheckedChange={(on) => patch({ syncMode: on ? 'recent' : 'all' })}
      />
      {section.syncMode === 'recent' ? (
        <form
          className="home-videos__count"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(count);
            if (!Number.isInteger(n) || n < 1 || n > 500) return setError('Choose a number from 1 to 500.');
            patch({ syncRecentCount: n });
          }}
        >
          <TextField label="How many to keep" type="number" inputMode="numeric" min={1} max={500} value={count} onChange={(e) => setCount(e.target.value)} />
          <button type="submit" className="btn" disabled={save.isPending}>
            Save
          </button>
        </form>
      ) : null}
      <FormError message={error} />
    </div>
  );
}
