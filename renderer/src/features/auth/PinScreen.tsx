// The PIN step of signing in: the chosen profile, the PIN pad, wrong-PIN messages and, after too
// many wrong PINs, a countdown from the server's Retry-After until the pad unlocks. A lock is per
// device: when this device is already locked out, the screen says so (and for how long) upfront.
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { api, ApiError, errorMessage } from '../../api/client';
import type { EffectiveLocaleResponse, UserResponse } from '../../api/types';
import { useSession } from '../../app/session';
import { Avatar } from '../../ui/Avatar';
import { formatClock } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { PinPad } from './PinPad';
import { useSelectProfile } from './queries';
import type { PickerState } from './ProfilePicker';

export function PinScreen(): ReactElement {
  const { userId = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state as PickerState | null) ?? {};
  const { signIn } = useSession();
  // POST /select confirms the profile still exists (and gives its name on a direct visit).
  const profile = useSelectProfile(userId);
  const reloadProfile = profile.refetch;
  const name = profile.data?.name ?? (state.profile?.id === userId ? state.profile.name : '');
  usePageTitle(name ? `Sign in as ${name}` : 'Sign in');

  const [error, setError] = useState<string | null>(null);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const secondsLeft = useCountdown(lockedUntil);
  const locked = lockedUntil !== null && secondsLeft > 0;

  const lockedForSeconds = profile.data?.lockedForSeconds;
  useEffect(() => {
    if (lockedForSeconds) {
      setLockedUntil(Date.now() + lockedForSeconds * 1000);
      setError('Too many wrong PINs were tried for this profile on this device. An admin can unlock it in Members.');
    }
  }, [lockedForSeconds]);

  useEffect(() => {
    if (lockedUntil !== null && secondsLeft <= 0) {
      setLockedUntil(null);
      setError('You can try your PIN again now.');
    }
  }, [lockedUntil, secondsLeft]);

  const back = () => navigate('/profiles', { state: { from: state.from } satisfies PickerState });

  const verify = useCallback(
    async (pin: string) => {
      setError(null);
      try {
        const { user } = await api.post<UserResponse>('/api/auth/verify-pin', { userId, pin });
        // their language and region before the first screen, so it is not drawn twice
        const own = await api.get<EffectiveLocaleResponse>('/api/auth/me/locale').then((r) => r.locale, () => undefined);
        signIn(user, own); // the route guard takes it from here
      } catch (err) {
        if (err instanceof ApiError && (err.code === 'locked_out' || err.code === 'rate_limited')) {
          setLockedUntil(Date.now() + (err.retryAfterSeconds ?? 300) * 1000);
        } else if (err instanceof ApiError && err.status === 404) {
          void reloadProfile();
        }
        setError(errorMessage(err));
      }
    },
    [userId, signIn, reloadProfile],
  );

  if (profile.status === 'error' && profile.error instanceof ApiError && profile.error.status === 404) {
    return (
      <div className="pin-screen">
        <ErrorState title="That profile is gone" error={profile.error} />
        <button type="button" className="btn btn--secondary" onClick={back}>
          Choose a profile
        </button>
      </div>
    );
  }

  return (
    <div className="pin-screen">
      <button type="button" className="btn btn--ghost pin-screen__back" onClick={back}>
        <Icon name="back" />
        Choose someone else
      </button>
      <div className="pin-screen__who">
        <Avatar id={userId} name={name || '?'} avatar={state.profile?.id === userId ? state.profile.avatar : null} size="lg" />
        <h1 className="pin-screen__title">{name ? `Hi, ${name}` : 'Sign in'}</h1>
        <p className="muted">Enter your PIN</p>
      </div>
      {profile.status === 'pending' && !name ? <LoadingState label="Loading profile…" /> : null}
      {profile.status === 'error' && !name ? <ErrorState error={profile.error} onRetry={() => void profile.refetch()} /> : null}
      {locked ? (
        <p className="banner banner--warn lockout" role="timer" aria-live="off" data-testid="lockout">
          <Icon name="lock" size={20} />
          Locked. Try again in <strong>{formatClock(secondsLeft)}</strong>
        </p>
      ) : null}
      <PinPad label={name ? `PIN for ${name}` : 'PIN'} onSubmit={verify} disabled={locked} error={error} />
    </div>
  );
}

/** Whole seconds until `until` (epoch ms), ticking once a second; 0 when there is none. */
function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}
