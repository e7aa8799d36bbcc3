// "Voice" on /profile: the member's own voice and speed (what Read aloud and voice mode speak with)
// and their wake word (on or off, and which), saved with PUT /api/voice. "Hear it" speaks a sample
// with what is saved.
import { useState, type FormEvent, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import type { VoiceConfigResponse } from '../../../../server/modules/voice/schema.js';
import { useUpdateVoiceChoices, useVoiceConfig } from './queries';
import { SpeakButton } from './SpeakButton';
import { canDetectWakeWords } from './wake-detector';

const RATES = [0.75, 1, 1.25, 1.5, 1.75, 2];

export function VoiceChoicesCard(): ReactElement {
  const voice = useVoiceConfig();
  let body: ReactElement;
  if (voice.error) body = <ErrorState title="Your voice settings did not load" error={voice.error} onRetry={() => void voice.refetch()} />;
  else if (!voice.data) body = <LoadingState label="Loading your voice settings…" />;
  else body = <ChoicesForm config={voice.data} />;
  return (
    <section className="card profile__pin" aria-labelledby="profile-voice-title">
      <h2 id="profile-voice-title" className="profile__label">
        Voice
      </h2>
      {body}
    </section>
  );
}

function ChoicesForm({ config }: { config: VoiceConfigResponse }): ReactElement {
  const update = useUpdateVoiceChoices();
  const toast = useToast();
  const [voice, setVoice] = useState(config.choices.voice ?? '');
  const [rate, setRate] = useState(config.choices.rate);
  const [wakeWord, setWakeWord] = useState(config.choices.wakeWord);
  const [wakeWordId, setWakeWordId] = useState(config.choices.wakeWordId ?? config.wakeWords[0]?.id ?? '');
  const fallback = config.voices.find((v) => v.id === config.defaultVoice) ?? config.voices[0];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      { voice: voice || null, rate, ...(config.wakeWords.length ? { wakeWord, wakeWordId: wakeWordId || null } : {}) },
      { onSuccess: () => toast('Your voice settings are saved.') },
    );
  };
  return (
    <form className="voice-admin__add" onSubmit={submit} aria-label="Your voice settings">
      {config.voices.length === 0 ? (
        <p className="muted">The Hearth computer has no speech engine, so there is no voice to choose. An admin can install one (see Admin › Voice).</p>
      ) : (
        <>
          <p className="muted">How Hearth reads aloud to you and answers in voice mode.</p>
          <div className="field">
            <label htmlFor="my-voice" className="field__label">
              Voice
            </label>
            <select id="my-voice" className="input" value={voice} onChange={(e) => setVoice(e.target.value)}>
              <option value="">The household’s voice ({fallback?.name})</option>
              {config.voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="my-rate" className="field__label">
              Speed
            </label>
            <select id="my-rate" className="input" value={String(rate)} onChange={(e) => setRate(Number(e.target.value))}>
              {RATES.map((r) => (
                <option key={r} value={String(r)}>
                  {r === 1 ? 'Normal' : `${r}×`}
                </option>
              ))}
            </select>
          </div>
        </>
      )}
      {config.wakeWords.length ? (
        <>
          <label className="voice-mode__wake">
            <input type="checkbox" checked={wakeWord} onChange={(e) => setWakeWord(e.target.checked)} data-testid="profile-wake-word" />
            Listen for a wake word in voice mode
          </label>
          {wakeWord ? (
            <div className="field">
              <label htmlFor="my-wake-word" className="field__label">
                Wake word
              </label>
              <select id="my-wake-word" className="input" value={wakeWordId} onChange={(e) => setWakeWordId(e.target.value)}>
                {config.wakeWords.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {wakeWord && !canDetectWakeWords() ? <p className="muted">On this device the page is not secure (plain http), so the wake word cannot listen here; it works where Hearth is opened at its secure address.</p> : null}
        </>
      ) : null}
      <FormError message={update.error ? errorMessage(update.error) : null} />
      <div className="voice-mode__bar">
        <button type="submit" className="btn btn--primary" disabled={update.isPending}>
          {update.isPending ? <Spinner size={20} /> : <Icon name="check" size={20} />}
          Save
        </button>
        {config.voices.length ? <SpeakButton text="This is how Hearth sounds when it reads to you." markdown={false} label="Hear it" /> : null}
      </div>
    </form>
  );
}
