// Who is signed in and where the household is in first-run setup. Loaded once at start (after boot),
// then kept current by the screens that change it (wizard, PIN pad, sign-out, member edits).
// Any 401 `unauthenticated` from the API clears the user, so the route guards send them to the picker.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { api, ApiError, onUnauthorized } from '../api/client';
import type { PublicUser, SessionResponse, SetupStatus } from '../api/types';

export interface SessionSnapshot {
  setup: SetupStatus;
  user: PublicUser | null;
}

export interface SessionValue extends SessionSnapshot {
  /** Why the user is on the profile picker, when it was not their own choice. */
  signedOutReason: 'expired' | null;
  signIn(user: PublicUser): void;
  /** The signed-in user's own record changed (renamed, role changed). */
  updateUser(user: PublicUser): void;
  updateSetup(patch: Partial<SetupStatus>): void;
  /** Ends the session on the server; the user is cleared even if the server is unreachable. */
  signOut(): Promise<void>;
  /** The session is gone without a request to the server (e.g. the user removed themselves). */
  forget(): void;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Reads first-run state and the current user: the start of every page load. */
export async function loadSession(signal?: AbortSignal): Promise<SessionSnapshot> {
  const setup = await api.get<SetupStatus>('/api/setup/status', { signal });
  if (setup.needsAdmin) return { setup, user: null };
  const { user } = await api.get<SessionResponse>('/api/auth/session', { signal });
  return { setup, user };
}

export function SessionProvider({ initial, children }: { initial: SessionSnapshot; children: ReactNode }): ReactElement {
  const [setup, setSetup] = useState(initial.setup);
  const [user, setUser] = useState(initial.user);
  const [signedOutReason, setSignedOutReason] = useState<'expired' | null>(null);

  const userRef = useRef(user);
  userRef.current = user;
  useEffect(
    () =>
      onUnauthorized(() => {
        if (!userRef.current) return;
        setSignedOutReason('expired');
        setUser(null);
      }),
    [],
  );

  const signIn = useCallback((u: PublicUser) => {
    setSignedOutReason(null);
    setUser(u);
  }, []);
  const updateUser = useCallback((u: PublicUser) => setUser((current) => (current && current.id === u.id ? u : current)), []);
  const updateSetup = useCallback((patch: Partial<SetupStatus>) => setSetup((s) => ({ ...s, ...patch })), []);
  const forget = useCallback(() => {
    setSignedOutReason(null);
    setUser(null);
  }, []);
  const signOut = useCallback(async () => {
    try {
      await api.post('/api/auth/logout');
    } catch (err) {
      // Already signed out on the server is fine; otherwise the cookie is still live, so say so.
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    }
    forget();
  }, [forget]);

  const value = useMemo<SessionValue>(
    () => ({ setup, user, signedOutReason, signIn, updateUser, updateSetup, signOut, forget }),
    [setup, user, signedOutReason, signIn, updateUser, updateSetup, signOut, forget],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession() outside <SessionProvider>');
  return value;
}

/** For screens behind RequireUser: the signed-in user, never null. */
export function useUser(): PublicUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser() on a screen that is not behind RequireUser');
  return user;
}
