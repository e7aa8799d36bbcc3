// "Adult content" on /profile (issue 32): a member at the adult content level turns it on for this
// browser with their PIN (POST /api/privacy/adult; 30 minutes; a wrong PIN counts toward this
// device's lock, and the server's sentence says how many tries are left) and off again (DELETE).
// Below adult the card says why it is not offered. While it is on, adult LoRAs and adult pictures
// in the history are available; media and archives do not depend on it.
import { useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { Spinner } from '../../ui/icons';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { digitsOnly, PIN_MAX_DIGITS } from '../auth';
import { useMyContent, usePrivacy, useTurnOffAdult, useTurnOnAdult } from './queries';
import { fmt } from '../../ui/locale';

const timeOf = (iso: string) => fmt().time(iso);

export function AdultContentCard(): ReactElement {
  const content = useMyContent();
  const privacy = usePrivacy();
  const [asking, setAsking] = useState(false);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const retry = () => {
    void content.refetch();
    void privacy.refetch();
  };
  const turnOn = useTurnOnAdult();
  const turnOff = useTurnOffAdult();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (!pin) {
      setPinError('Type your PIN.');
      return;
    }
    try {
      await turnOn.mutateAsync(pin);
      setPin('');
      setPinError(null);
      setAsking(false);
    } catch (err) {
      const wrong = err instanceof ApiError && err.code === 'invalid_pin';
      setPinError(wrong ? err.message : null);
      setFormError(wrong ? null : errorMessage(err));
    }
  };
  const off = async () => {
    setFormError(null);
    try {
      await turnOff.mutateAsync();
    } catch (err) {
      setFormError(errorMessage(err));
    }
  };

  let body: ReactElement;
  if (content.isPending || privacy.isPending) body = <LoadingState label="Loading your content settings…" />;
  else if (content.isError || privacy.isError) body = <ErrorState error={content.error ?? privacy.error} onRetry={retry} />;
  else if (content.data.level !== 'adult') {
    body = <p className="muted">Adult content is only for members at the adult content level. An admin sets levels in Members.</p>;
  } else if (privacy.data.adultState && privacy.data.until) {
    body = (
      <>
        <p role="status">Adult content is on in this browser until {timeOf(privacy.data.until)}. Signing out turns it off.</p>
        <FormError message={formError} />
        <div className="profile__actions">
          <button type="button" className="btn" onClick={() => void off()} disabled={turnOff.isPending}>
            {turnOff.isPending ? <Spinner size={20} /> : null}
            Turn off adult content
          </button>
        </div>
      </>
    );
  } else if (asking) {
    body = (
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          type="password"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={PIN_MAX_DIGITS}
          label="Your PIN"
          hint="On for 30 minutes in this browser."
          autoComplete="current-password"
          value={pin}
          onChange={(e) => setPin(digitsOnly(e.target.value))}
          error={pinError}
        />
        <FormError message={formError} />
        <div className="profile__actions">
          <button type="button" className="btn" onClick={() => setAsking(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={turnOn.isPending}>
            {turnOn.isPending ? <Spinner size={20} /> : null}
            Turn on
          </button>
        </div>
      </form>
    );
  } else {
    body = (
      <>
        <p className="muted">Off. Turning it on allows adult add-ons and adult pictures in your picture history for 30 minutes in this browser.</p>
        <div className="profile__actions">
          <button type="button" className="btn btn--primary" onClick={() => setAsking(true)}>
            Turn on adult content
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="card profile__pin" aria-labelledby="profile-adult-title">
      <h2 id="profile-adult-title" className="profile__label">
        Adult content
      </h2>
      {body}
    </section>
  );
}
