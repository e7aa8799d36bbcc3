// Start-up: while the server is still booting (GET /api/system/ready is 503) show the boot screen;
// then read setup state and the session, and hand over to the router. The readiness check, setup
// state, the session and the code of the page being opened are all asked for at once, and the page's
// first data and the shell's own (the tools list, the bell's count) the moment the session names
// someone: on a phone each round trip waited for would cost a visible moment before the first screen.
// In the built app the start-up loader in index.html (boot-loader.ts) has asked for all of these
// before this code arrived; client.ts takes its answers, so nothing is asked twice.
import { startTransition, useCallback, useEffect, useState, type ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { apiFetch, onNetworkError, takeEarly } from '../api/client';
import { createQueryClient } from '../api/query';
import { BootScreen } from '../features/boot/BootScreen';
import { SecureAddressOffer } from '../features/trust/SecureAddressOffer';
import { Icon, Spinner } from '../ui/icons';
import { ErrorState } from '../ui/StateViews';
import { isUnreachable, NotReachable } from './NotReachable';
import { START_GETS } from './boot-loader';
import { seesShell } from './page-table';
import { prefetchFirstScreen, preloadPageFor } from './pages';
import { AppRoutes } from './router';
import { loadSession, SessionProvider, type SessionSnapshot } from './session';

type Phase =
  | { kind: 'checking' }
  | { kind: 'booting' }
  | { kind: 'loading' }
  | { kind: 'error'; error: unknown }
  | { kind: 'ready'; session: SessionSnapshot };

export function App(): ReactElement {
  // one cache for the life of the page; the session clears it whenever the person changes
  const [queryClient] = useState(createQueryClient);
  const [phase, setPhase] = useState<Phase>({ kind: 'checking' });
  // the API stopped answering mid-session: the screen covers the app (its state stays underneath)
  const [lost, setLost] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => onNetworkError(() => setLost(true)), []);
  // the not-reachable screen's retries: one quiet question; only an answer changes the screen
  const answers = useCallback(async () => (await apiFetch(START_GETS.ready, { headers: { Accept: 'application/json' } }).catch(() => null)) !== null, []);
  const checkAgain = useCallback(async () => {
    if (await answers()) setLost(false);
  }, [answers]);
  const startAgain = useCallback(async () => {
    if (await answers()) setAttempt((n) => n + 1);
  }, [answers]);

  const load = useCallback(async (signal?: AbortSignal) => {
    setPhase({ kind: 'loading' });
    try {
      const session = await loadSession(signal);
      if (signal?.aborted) return;
      setLost(false);
      setPhase({ kind: 'ready', session });
    } catch (error) {
      if (!signal?.aborted) setPhase({ kind: 'error', error });
    }
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    (async () => {
      // already checking on the first run: a new object would only draw the splash again
      setPhase((p) => (p.kind === 'checking' ? p : { kind: 'checking' }));
      const { pathname, search } = window.location;
      preloadPageFor(pathname);
      // answered while booting too (the database is open before the server listens); unused then
      const session = loadSession(controller.signal);
      // someone is signed in and will see the shell: the page's first data and the shell's own are
      // asked for now, not after it draws (never for a signed-out visitor: they would be refused)
      session.then((s) => {
        if (s.user && seesShell(s.setup, s.user)) prefetchFirstScreen(pathname, search, s.user.role);
      }, () => undefined); // a failure is read below, unless the server is still booting
      try {
        // the loader in index.html asked already (its 503 is an answer too); asked again if it got none
        const early = takeEarly(START_GETS.ready);
        const ask = () => apiFetch(START_GETS.ready, { signal: controller.signal, headers: { Accept: 'application/json' } });
        const res = early ? await early.catch(ask) : await ask();
        if (controller.signal.aborted) return;
        if (res.status === 503) {
          setPhase({ kind: 'booting' });
          return;
        }
        const snapshot = await session;
        if (controller.signal.aborted) return;
        setLost(false);
        // the first screen (shell and page) is rendered as a transition: React builds it in short
        // slices between which the browser stays free, instead of one long task (on a slow phone's
        // processor about half a second on Members and an article, which Lighthouse counts as
        // blocking time); the splash stays until the screen is ready to be shown whole
        startTransition(() => setPhase({ kind: 'ready', session: snapshot }));
      } catch (error) {
        if (!controller.signal.aborted) setPhase({ kind: 'error', error });
      }
    })();
    return () => controller.abort();
  }, [attempt, load]);

  switch (phase.kind) {
    case 'checking':
    case 'loading':
      return <Splash />;
    case 'booting':
      return <BootScreen onDone={() => void load()} />;
    case 'error':
      if (isUnreachable(phase.error)) return <NotReachable onRetry={startAgain} />;
      return (
        <div className="center-screen">
          <div className="card card--narrow">
            <ErrorState title="Hearth is not answering" error={phase.error} onRetry={() => setAttempt((n) => n + 1)} />
          </div>
        </div>
      );
    case 'ready':
      return (
        <QueryClientProvider client={queryClient}>
          <SessionProvider initial={phase.session}>
            <SecureAddressOffer />
            <Routed />
            {lost ? <NotReachable over onRetry={checkAgain} /> : null}
          </SessionProvider>
        </QueryClientProvider>
      );
  }
}

function Routed(): ReactElement {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}

/** The same markup as the first paint in index.html; no text, so the font waits for the first real words. */
function Splash(): ReactElement {
  return (
    <div className="center-screen splash" role="status" aria-label="Opening Hearth…">
      <Icon name="flame" size={48} className="brand__mark" />
      <Spinner size={24} />
    </div>
  );
}
