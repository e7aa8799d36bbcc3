// Who is signed in and where the household is in first-run setup. Loaded once at start (after boot),
// then kept current by the screens that change it (wizard, PIN pad, sign-out, member edits).
// Any 401 `unauthenticated` from the API clears the user, so the route guards send them to the picker.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, dropPrefetched, onUnauthorized } from '../api/client';
import type { EffectiveLocale, EffectiveLocaleResponse, PublicUser, SessionResponse, SetupStatus } from '../api/types';
import { setActiveLocale } from '../ui/locale';
import { START_GETS } from './boot-loader';
import { openSessionChannel, type SessionChannel } from './session-channel';

export interface SessionSnapshot {
  setup: SetupStatus;
  user: PublicUser | null;
  /** The signed-in member's language and region (the household's with their override); null signed out. */
  locale: EffectiveLocale | null;
}

export interface SessionValue extends SessionSnapshot {
  /** Why the user is on the profile picker, when it was not their own choice. */
  signedOutReason: SignedOutReason;
  /** `locale`: their language and region when the caller has it already (otherwise it is asked for). */
  signIn(user: PublicUser, locale?: EffectiveLocale): void;
  /** The signed-in user's own record changed (renamed, role changed). */
  updateUser(user: PublicUser): void;
  updateSetup(patch: Partial<SetupStatus>): void;
  /** Ends the session on the server; the user is cleared even if the server is unreachable. */
  signOut(): Promise<void>;
  /** The session is gone without a request to the server (e.g. the user removed themselves). */
  forget(): void;
  /** Asks the server for the member's language and region again (after a change to it); every screen is drawn again in it. */
  refreshLocale(): Promise<void>;
}

/** 'expired': the server ended the session; 'elsewhere': someone signed out in another tab. */
export type SignedOutReason = 'expired' | 'elsewhere' | null;

const SessionContext = createContext<SessionValue | null>(null);

/** Reads first-run state and the current user: the start of every page load. */
export async function loadSession(signal?: AbortSignal): Promise<SessionSnapshot> {
  // both at once (one round trip); before the first admin exists there is no user to show
  const [setup, session] = await Promise.all([api.get<SetupStatus>(START_GETS.setup, { signal }), api.get<SessionResponse>(START_GETS.session, { signal })]);
  return { setup, user: setup.needsAdmin ? null : session.user, locale: setup.needsAdmin ? null : (session.locale ?? null) };
}

/** A locale's fields as one key: the shell draws its page again with the new formats when it changes. */
export const localeKey = (l: EffectiveLocale | null) => (l ? [l.language, l.timeZone, l.units, l.firstDayOfWeek, l.dateFormat, l.timeFormat].join('|') : 'browser');

export function SessionProvider({ initial, children }: { initial: SessionSnapshot; children: ReactNode }): ReactElement {
  const [setup, setSetup] = useState(initial.setup);
  const [user, setUserState] = useState(initial.user);
  const [signedOutReason, setSignedOutReason] = useState<SignedOutReason>(null);
  const [locale, setLocaleState] = useState(() => {
    if (initial.locale) setActiveLocale(initial.locale);
    return initial.locale;
  });
  const setLocale = useCallback((next: EffectiveLocale | null) => {
    if (next) setActiveLocale(next);
    setLocaleState(next);
  }, []);
  const refreshLocale = useCallback(async () => {
    const { locale: next } = await api.get<EffectiveLocaleResponse>('/api/auth/me/locale');
    setLocale(next);
  }, [setLocale]);

  const userRef = useRef(user);
  userRef.current = user;

  // one person's cached answers are never shown to the next: the cache goes when the person
  // changes, before anything renders for the new one (cleared in an effect it would also drop the
  // queries the new person's first screen has just started, which then never answer)
  const queryClient = useQueryClient();
  const setUser = useCallback(
    (next: PublicUser | null) => {
      if ((userRef.current?.id ?? null) !== (next?.id ?? null)) {
        queryClient.clear();
        dropPrefetched();
      }
      userRef.current = next;
      setUserState(next);
    },
    [queryClient],
  );
  useEffect(
    () =>
      onUnauthorized(() => {
        if (!userRef.current) return;
        setSignedOutReason('expired');
        setUser(null);
      }),
    [setUser],
  );

  // the other tabs of this browser share the cookie: follow their sign-outs and sign-ins
  const channel = useRef<SessionChannel | null>(null);
  useEffect(() => {
    const opened = openSessionChannel((m) => {
      if (m.type === 'signed-out') {
        if (!userRef.current) return;
        setSignedOutReason('elsewhere');
        setUser(null);
        return;
      }
      if (userRef.current?.id === m.userId) return;
      // someone else signed in: this tab's requests now carry their cookie, so show them
      loadSession().then(
        (snapshot) => {
          setSetup(snapshot.setup);
          setSignedOutReason(null);
          setLocale(snapshot.locale);
          setUser(snapshot.user);
        },
        () => setUser(null),
      );
    });
    channel.current = opened;
    return () => opened.close();
  }, [setUser, setLocale]);

  const signIn = useCallback((u: PublicUser, own?: EffectiveLocale) => {
    setSignedOutReason(null);
    // the first screen is drawn in their language and region when the caller has it
    if (own) setLocale(own);
    setUser(u);
    channel.current?.announce({ type: 'signed-in', userId: u.id });
    if (!own) refreshLocale().catch(() => undefined);
  }, [setUser, setLocale, refreshLocale]);
  const updateUser = useCallback((u: PublicUser) => setUserState((current) => (current && current.id === u.id ? u : current)), []);
  const updateSetup = useCallback((patch: Partial<SetupStatus>) => setSetup((s) => ({ ...s, ...patch })), []);
  const forget = useCallback(() => {
    setSignedOutReason(null);
    setUser(null);
    channel.current?.announce({ type: 'signed-out' });
  }, [setUser]);
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
    () => ({ setup, user, locale, signedOutReason, signIn, updateUser, updateSetup, signOut, forget, refreshLocale }),
    [setup, user, locale, signedOutReason, signIn, updateUser, updateSetup, signOut, forget, refreshLocale],
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
