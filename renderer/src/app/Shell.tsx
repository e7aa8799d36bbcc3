// The signed-in frame: the header (Hearth, the bell, the profile menu, Sign out) and, beside the page, one
// navigation landmark that CSS shapes for the width (app/shell.css):
// - wide screens: a sidebar with the main entries (Home, Reader, Chat, Library; Admin for admins)
//   and More, which opens the More group (Companions, Pictures, App Store, Downloads…) as a panel
//   beside the sidebar, so the sidebar keeps its length however many pages there are; it collapses
//   to icons (the choice is kept in localStorage) and is icons only from 720 to 1023 px;
// - phones: the main entries as a bottom tab bar, and a More tab opening the More group above it.
// Admin pages are not listed one by one: the Admin entry opens a page listing them, and shows as
// current on any of them. Pages of tools that are switched off are left out (ToolsProvider).
import { Fragment, useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { Link, matchPath, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { ToolsProvider, useTools } from '../features/apps/tools';
import { ProfileMenu } from './ProfileMenu';
import { SearchBox } from '../features/search/SearchBox';
import { MiniPlayerSlot, useNowPlaying } from '../features/listen';
import { useNowWatching, VideoPlayerSlot } from '../features/videos';
import { useMediaNav } from '../features/media/nav';
import { Icon, Spinner } from '../ui/icons';
import { ToastProvider } from '../ui/Toast';
import { ADMIN_PAGE_ID, HEADER_ITEMS, isAdminLocation, navFor, pageHref, type ShellPage } from './pages';
import { localeKey, useSession, useUser } from './session';
import './shell.css';

/** localStorage key of the sidebar's collapsed choice ('1' collapsed). */
export const SIDEBAR_KEY = 'hearth.sidebarCollapsed';

export function Shell(): ReactElement {
  return (
    <ToolsProvider>
      <ToastProvider>
        <ShellFrame />
      </ToastProvider>
    </ToolsProvider>
  );
}

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(SIDEBAR_KEY) === '1';
  } catch {
    return false; // storage blocked: the default
  }
}

function ShellFrame(): ReactElement {
  const user = useUser();
  const { isVisible, status: toolsStatus } = useTools();
  const { signOut, locale } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [collapsed, setCollapsed] = useState(readCollapsed);

  // After moving to another page, put focus at the top of the new content (screen readers and
  // keyboard users otherwise stay on the link they pressed).
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: false });
  }, [location.pathname]);

  const toggleCollapsed = () => {
    const next = !collapsed;
    setCollapsed(next);
    try {
      localStorage.setItem(SIDEBAR_KEY, next ? '1' : '0');
    } catch {
      // storage blocked: the choice lasts for this page only
    }
  };

  const handleSignOut = async () => {
    setSigningOut(true);
    setError(null);
    try {
      await signOut();
      navigate('/profiles', { replace: true });
    } catch (err) {
      setError(`Could not sign out. ${errorMessage(err)}`);
      setSigningOut(false);
    }
  };

  const mediaNav = useMediaNav(user.role);
  const nav = navFor(user.role, isVisible, (when) => mediaNav[when]);
  const headerItems = HEADER_ITEMS.filter((h) => h.access === 'user' || user.role === 'admin');
  const onAdminPage = isAdminLocation(location.pathname);
  const playing = useNowPlaying() !== null;
  const watching = useNowWatching() !== null;

  return (
    <div className={['shell', collapsed && 'shell--collapsed', playing && 'shell--playing', watching && 'shell--watching'].filter(Boolean).join(' ')}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <Link to="/" className="brand" aria-label="Hearth home">
          <Icon name="flame" className="brand__mark" />
          <span className="brand__name">Hearth</span>
        </Link>
        <div className="shell__actions">
          {/* the button only (about 1 KB): its dialog is a chunk of its own, loaded when search is near */}
          <SearchBox />
          {headerItems.map((h) => (
            <h.Component key={h.id} />
          ))}
          <ProfileMenu user={user} />
          <button type="button" className="btn btn--ghost btn--compact" onClick={() => void handleSignOut()} disabled={signingOut} title="Sign out" data-testid="sign-out">
            {signingOut ? <Spinner size={20} /> : <Icon name="signOut" />}
            <span className="shell__signout-label">Sign out</span>
          </button>
        </div>
      </header>
      {/* busy until the enabled tools are known: until then every entry shows (optimistic) */}
      <nav aria-label="Main" className="shell__nav" aria-busy={toolsStatus === 'loading' ? true : undefined}>
        <NavLists main={nav.main} more={nav.more} adminCurrent={onAdminPage} />
        <button type="button" className="nav-link nav-collapse" onClick={toggleCollapsed} title={collapsed ? 'Show labels' : 'Icons only'}>
          <Icon name="sidebar" />
          <span className="nav-link__label">{collapsed ? 'Show labels' : 'Icons only'}</span>
        </button>
      </nav>
      <div className="shell__alerts" aria-live="assertive">
        {error ? (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <main id="main" ref={mainRef} tabIndex={-1} className="shell__main">
        {/* a new language or region draws the page again in it (the shell and its toasts stay) */}
        <Fragment key={localeKey(locale)}>
          <Outlet />
        </Fragment>
      </main>
      {/* the podcast player, kept here so that moving between pages never stops it */}
      <MiniPlayerSlot />
      {/* the video player, kept here for the same reason */}
      <VideoPlayerSlot />
    </div>
  );
}

/**
 * The main entries (with More) and the More group: a panel beside the sidebar (above the tab bar on
 * phones), opened by More, closed by choosing a page, Escape or a tap outside; More shows as current
 * while one of its pages is open.
 */
function NavLists({ main, more, adminCurrent }: { main: readonly ShellPage[]; more: readonly ShellPage[]; adminCurrent: boolean }): ReactElement {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const groupId = useId();
  const titleId = useId();
  const moreCurrent = more.some((p) => matchPath({ path: pageHref(p), end: false }, location.pathname));

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!box.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);

  return (
    <>
      <ul className="nav-list nav-list--main">
        {main.map((p) =>
          p.id === ADMIN_PAGE_ID ? (
            <li key={p.id}>
              <Link to={pageHref(p)} className="nav-link" aria-current={adminCurrent ? 'page' : undefined} title={p.label}>
                <Icon name={p.icon} />
                <span className="nav-link__label">{p.label}</span>
              </Link>
            </li>
          ) : (
            <li key={p.id}>
              <NavLink to={pageHref(p)} end={p.path === ''} className="nav-link" title={p.label}>
                <Icon name={p.icon} />
                <span className="nav-link__label">{p.label}</span>
              </NavLink>
            </li>
          ),
        )}
        {more.length > 0 ? (
          <li className="nav-more">
            <button
              ref={button}
              type="button"
              className={moreCurrent ? 'nav-link nav-more__button nav-more__button--current' : 'nav-link nav-more__button'}
              aria-expanded={open}
              aria-controls={groupId}
              onClick={() => setOpen((o) => !o)}
            >
              <Icon name="more" />
              <span className="nav-link__label">More</span>
            </button>
          </li>
        ) : null}
      </ul>
      {more.length > 0 ? (
        <div id={groupId} ref={box} className={open ? 'nav-secondary is-open' : 'nav-secondary'}>
          <p className="nav-secondary__title" id={titleId}>
            More
          </p>
          <ul className="nav-list" aria-labelledby={titleId}>
            {more.map((p) => (
              <li key={p.id}>
                <NavLink to={pageHref(p)} className="nav-link" title={p.label}>
                  <Icon name={p.icon} />
                  <span className="nav-link__label">{p.label}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
