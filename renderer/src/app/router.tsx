// Routes and the guards that send people to the right place for where the household is:
// no admin yet -> /setup; signed out -> /profiles; an admin who has not finished the welcome
// wizard -> /setup (it resumes where they left off); otherwise the shell and its pages.
import { lazy, Suspense, type ReactElement } from 'react';
import { createBrowserRouter, Link, Navigate, Outlet, useLocation, type RouteObject } from 'react-router';
import { AdminOnlyPage } from '../features/admin/AdminOnlyPage';
import { ToolOffPage } from '../features/apps/ComingSoonPage';
import { useTools } from '../features/apps/tools';
import { PinScreen } from '../features/auth/PinScreen';
import { ProfilePicker } from '../features/auth/ProfilePicker';
import { ErrorState, LoadingState } from '../ui/StateViews';
import { usePageTitle } from '../ui/usePageTitle';
import { canOpen, SHELL_PAGES, type ShellPage } from './pages';
import { useSession } from './session';
import { Shell } from './Shell';

// the wizard is opened once per household: its own chunk, like the pages (pages.tsx)
const SetupWizard = lazy(() => import('../features/setup/SetupWizard').then((m) => ({ default: m.SetupWizard })));

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

/**
 * A page whose code did not arrive (each page is its own file: the connection dropped, or Hearth
 * was updated and the old files are gone) or that failed while drawing: a sentence and a reload,
 * inside the shell, instead of the router's developer screen.
 */
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

export function appRoutes(pages: readonly ShellPage[] = SHELL_PAGES): RouteObject[] {
  const pageRoutes: RouteObject[] = pages.map((p) =>
    p.path === '' ? { index: true, element: <PageRoute page={p} />, errorElement: <PageLoadFailed /> } : { path: p.path, element: <PageRoute page={p} />, errorElement: <PageLoadFailed /> },
  );
  return [
    { path: '/setup', element: <SetupRoute />, errorElement: <PageLoadFailed /> },
    {
      path: '/profiles',
      element: <ProfilesRoute />,
      children: [
        { index: true, element: <ProfilePicker /> },
        { path: ':userId', element: <PinScreen /> },
      ],
    },
    {
      element: <RequireUser />,
      children: [{ element: <Shell />, children: [...pageRoutes, { path: '*', element: <NotFoundPage /> }] }],
    },
  ];
}

export const createAppRouter = () => createBrowserRouter(appRoutes());
