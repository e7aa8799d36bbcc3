// Routes and the guards that send people to the right place for where the household is:
// no admin yet -> /setup; signed out -> /profiles; an admin who has not finished the welcome
// wizard -> /setup (it resumes where they left off); otherwise the shell and its pages.
import { Component, lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { Link, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { AdminOnlyPage } from '../features/admin/AdminOnlyPage';
import { ToolOffPage } from '../features/apps/ComingSoonPage';
import { useTools } from '../features/apps/tools';
import { PinScreen } from '../features/auth/PinScreen';
import { ProfilePicker } from '../features/auth/ProfilePicker';
import { ErrorState, LoadingState } from '../ui/StateViews';
import { usePageTitle } from '../ui/usePageTitle';
import { SHELL_PAGES } from './pages';
import { canOpen, ShellPagesContext, type ShellPage } from './shell-pages';
import { useSession } from './session';
import { Shell } from './Shell';

// the wizard is opened once per household: its own chunk, like the pages (pages.tsx)
const SetupWizard = lazy(() => import('../features/setup/SetupWizard').then((m) => ({ default: m.SetupWizard })));
// open to everyone, signed in or not: a phone comes here first to trust the secure address
const TrustPage = lazy(() => import('../features/trust/TrustPage').then((m) => ({ default: m.TrustPage })));

export interface ReturnState {
  /** Where to go after signing in. */
  from?: string;
}

function RequireUser(): ReactElement {
  const { setup, user } = useSession();
  const location = useLocation();
  if (setup.needsAdmin) return <Navigate to="/setup" replace />;
  if (!user) {
    const from = location.pathname + location.search;
    return <Navigate to="/profiles" replace state={from !== '/' ? ({ from } satisfies ReturnState) : undefined} />;
  }
  if (user.role === 'admin' && !setup.welcomeComplete) return <Navigate to="/setup" replace />;
  return <Outlet />;
}

function SetupRoute(): ReactElement {
  const { setup, user } = useSession();
  if (setup.needsAdmin || (user?.role === 'admin' && !setup.welcomeComplete))
    return (
      <Suspense fallback={<LoadingState />}>
        <SetupWizard />
      </Suspense>
    );
  if (!user) return <Navigate to="/profiles" replace />;
  return <Navigate to="/" replace />;
}

function ProfilesRoute(): ReactElement {
  const { setup, user } = useSession();
  const location = useLocation();
  if (setup.needsAdmin) return <Navigate to="/setup" replace />;
  if (user) return <Navigate to={(location.state as ReturnState | null)?.from ?? '/'} replace />;
  return <Outlet />;
}

function PageRoute({ page }: { page: ShellPage }): ReactElement {
  const { user } = useSession();
  const { isVisible } = useTools();
  usePageTitle(page.label);
  if (!user) return <Navigate to="/" replace />;
  if (!canOpen(page, user.role)) return <AdminOnlyPage label={page.label} />;
  if (page.toolId && !isVisible(page.toolId)) return <ToolOffPage toolId={page.toolId} />;
  return (
    <Suspense fallback={<LoadingState />}>
      <page.Component />
    </Suspense>
  );
}

interface BoundaryProps {
  /** Changes on every navigation: a failed page is forgotten when someone goes anywhere else. */
  resetKey: string;
  fallback: ReactNode;
  children: ReactNode;
}

/** Shows `fallback` in place of `children` once they throw, until `resetKey` changes. */
class FailureBoundary extends Component<BoundaryProps, { failed: boolean; key: string }> {
  override state = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { key: string }): { failed: boolean; key: string } | null {
    // moved on since the failure: draw what is there now
    return props.resetKey !== state.key ? { failed: false, key: props.resetKey } : null;
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * A page whose code did not arrive (each page is its own file: the connection dropped, or Hearth
 * was updated and the old files are gone) or that failed while drawing: a sentence and a reload,
 * inside the shell, instead of a blank screen. Going to another page draws that page.
 */
function PageBoundary({ children }: { children: ReactNode }): ReactElement {
  const location = useLocation();
  return (
    <FailureBoundary resetKey={location.key} fallback={<PageLoadFailed />}>
      {children}
    </FailureBoundary>
  );
}

function PageLoadFailed(): ReactElement {
  usePageTitle('Page did not load');
  return (
    <section className="page">
      <h1 className="page__title">This page did not load</h1>
      <ErrorState
        title="Hearth could not open this page"
        error={new Error('The connection may have dropped, or Hearth was just updated. Reloading gets the newest version.')}
        onRetry={() => window.location.reload()}
      />
    </section>
  );
}

/** The same, for a failure outside any page (the shell, the sign-in screens): the whole screen. */
function AppFailed(): ReactElement {
  return (
    <div className="center-screen">
      <div className="card card--narrow">
        <PageLoadFailed />
      </div>
    </div>
  );
}

function NotFoundPage(): ReactElement {
  usePageTitle('Not found');
  return (
    <section className="page">
      <h1 className="page__title">Nothing here</h1>
      <p className="muted">That page does not exist in Hearth.</p>
      <p>
        <Link className="btn btn--secondary" to="/">
          Go home
        </Link>
      </p>
    </section>
  );
}

/** The routes, in declarative mode (`<Routes>`): the app uses no loaders or actions. */
export function AppRoutes({ pages = SHELL_PAGES }: { pages?: readonly ShellPage[] }): ReactElement {
  const location = useLocation();
  return (
    <FailureBoundary resetKey={location.key} fallback={<AppFailed />}>
      <ShellPagesContext.Provider value={pages}>
        <Routes>
          <Route
            path="/setup"
            element={
              <PageBoundary>
                <SetupRoute />
              </PageBoundary>
            }
          />
          <Route
            path="/trust"
            element={
              <PageBoundary>
                <Suspense fallback={<LoadingState />}>
                  <TrustPage />
                </Suspense>
              </PageBoundary>
            }
          />
          <Route path="/profiles" element={<ProfilesRoute />}>
            <Route index element={<ProfilePicker />} />
            <Route path=":userId" element={<PinScreen />} />
          </Route>
          <Route element={<RequireUser />}>
            <Route element={<Shell />}>
              {pages.map((p) => {
                const element = (
                  <PageBoundary>
                    <PageRoute page={p} />
                  </PageBoundary>
                );
                return p.path === '' ? <Route key={p.id} index element={element} /> : <Route key={p.id} path={p.path} element={element} />;
              })}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </ShellPagesContext.Provider>
    </FailureBoundary>
  );
}
