// /videos/settings (admin, issue 35): where video search goes (an Invidious instance, Piped as the
// alternative; none until an admin sets one), the PeerTube instances the hub lists, and how large
// the offline video cache may grow (the least recently watched copies make room).
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { formatBytes } from '../../ui/format';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { usePageTitle } from '../../ui/usePageTitle';
import { useSaveVideoSettings, useVideoSettings, type VideoSettings } from './queries';
import './videos.css';

const GB = 1024 ** 3;

function SettingsForm({ settings, usedBytes }: { settings: VideoSettings; usedBytes: number }): ReactElement {
  const save = useSaveVideoSettings();
  const listId = useId();
  const [invidious, setInvidious] = useState(settings.invidiousUrl ?? '');
  const [piped, setPiped] = useState(settings.pipedUrl ?? '');
  const [peertube, setPeertube] = useState(settings.peertubeUrls.join('\n'));
  const [capGb, setCapGb] = useState(String(Math.round((settings.vstreamCapBytes / GB) * 10) / 10));
  // an edit after a save: "Saved." no longer describes what is on screen
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    if (!save.isIdle && !save.isPending) save.reset();
  };
  const cap = Number(capGb);
  const capError = capGb.trim() === '' || !Number.isFinite(cap) || cap <= 0 ? 'Give the cache a size above 0 GB.' : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (capError) return;
    save.mutate({
      invidiousUrl: invidious.trim() || null,
      pipedUrl: piped.trim() || null,
      peertubeUrls: peertube.split(/\s+/).map((u) => u.trim()).filter(Boolean),
      vstreamCapBytes: Math.round(cap * GB),
    });
  };
  return (
    <form className="videos-settings" onSubmit={submit}>
      <TextField label="Invidious address" hint="Search goes here first (for example https://invidious.example.org). The words members search for are sent to it." value={invidious} onChange={edit(setInvidious)} inputMode="url" autoComplete="off" />
      <TextField label="Piped address" hint="Used when Invidious does not answer, or on its own." value={piped} onChange={edit(setPiped)} inputMode="url" autoComplete="off" />
      <div className="field">
        <label htmlFor={listId} className="field__label">
          PeerTube instances
        </label>
        <span className="field__hint" id={`${listId}-hint`}>
          One address a line, up to five. Their recent videos show in the hub; Creative Commons ones can be saved for offline.
        </span>
        <textarea id={listId} className="input" rows={3} aria-describedby={`${listId}-hint`} value={peertube} onChange={edit(setPeertube)} />
      </div>
      <TextField label="Offline video cache (GB)" hint={`In use now: ${formatBytes(usedBytes)}. When it is full, the least recently watched copies make room.`} value={capGb} onChange={edit(setCapGb)} inputMode="decimal" error={capError} />
      <FormError message={save.isError ? `The settings were not saved. ${errorMessage(save.error)}` : null} />
      <div className="videos-settings__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending || capError !== null}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <p role="status" className="muted">
          {save.isSuccess ? 'Saved.' : ''}
        </p>
      </div>
    </form>
  );
}

export function VideosAdminPage(): ReactElement {
  usePageTitle('Videos settings');
  const settings = useVideoSettings();
  return (
    <section className="page videos" aria-labelledby="videos-admin-title">
      <PageHeader titleId="videos-admin-title" title="Videos settings" description="Hearth never searches YouTube by itself: search goes through an instance you choose. YouTube videos are never saved; PeerTube videos under a Creative Commons licence and podcast videos can be." />
      {settings.isPending ? <LoadingState label="Loading the settings…" /> : settings.isError ? <ErrorState title="The settings did not load" error={settings.error} onRetry={() => void settings.refetch()} /> : <SettingsForm settings={settings.data.settings} usedBytes={settings.data.usedBytes} />}
    </section>
  );
}
