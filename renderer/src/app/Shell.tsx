// The signed-in frame: header (Hearth, navigation, the user, sign out) and the page below.
// On wide screens the navigation sits in the header; on phones the same <nav> becomes a bottom
// tab bar (CSS only, so there is one navigation landmark either way); when an admin's pages do not
// fit, the last tab is More, a menu of the rest. Pages of tools that are
// switched off are left out of the navigation (the enabled set is shared through ToolsProvider).
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { Link, matchPath, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { ToolsProvider, useTools } from '../features/apps/tools';
import { Avatar } from '../ui/Avatar';
import { Icon, Spinner } from '../ui/icons';
import { HEADER_ITEMS, navItemsFor, pageHref, type ShellPage } from './pages';
import { useSession, useUser } from './session';

export function Shell(): ReactElement {
  return (
    <ToolsProvider>
      <ShellFrame />
    </ToolsProvider>
  );
}

function ShellFrame(): ReactElement {
  const user = useUser();
  const { isVisible } = useTools();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  const [signingOut, setSigningOut] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // After moving to another page, put focus at the top of the new content (screen readers and
  // keyboard users otherwise stay on the link they pressed).
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: false });
  }, [location.pathname]);

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

  const items = navItemsFor(user.role, isVisible);
  // phones show TAB_SLOTS tabs and a More tab for the rest (CSS hides the overflow tabs there)
  const overflowing = items.length > TAB_SLOTS + 1;
  const headerItems = HEADER_ITEMS.filter((h) => h.access === 'user' || user.role === 'admin');

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <Link to="/" className="brand" aria-label="Hearth home">
          <Icon name="flame" className="brand__mark" />
          <span className="brand__name">Hearth</span>
        </Link>
        <nav aria-label="Main" className="shell__nav">
          <ul className="shell__nav-list">
            {items.map((p, i) => (
              <li key={p.id} className={overflowing && i >= TAB_SLOTS ? 'nav-item--overflow' : undefined}>
                <NavLink to={pageHref(p)} end={p.path === ''} className="nav-link">
                  <Icon name={p.icon} />
                  <span className="nav-link__label">{p.label}</span>
                </NavLink>
              </li>
            ))}
            {overflowing ? <MoreMenu pages={items.slice(TAB_SLOTS)} /> : null}
          </ul>
        </nav>
        <div className="shell__actions">
          {headerItems.map((h) => (
            <h.Component key={h.id} />
          ))}
          <span className="user-chip" data-testid="current-user">
            <Avatar id={user.id} name={user.name} avatar={user.avatar} size="sm" />
            <span className="user-chip__name">{user.name}</span>
          </span>
          <button type="button" className="btn btn--ghost btn--compact" onClick={handleSignOut} disabled={signingOut}>
            {signingOut ? <Spinner size={20} /> : <Icon name="signOut" />}
            <span className="shell__signout-label">Sign out</span>
          </button>
        </div>
      </header>
      <div className="shell__alerts" aria-live="assertive">
        {error ? (
          <p className="banner banner--error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <main id="main" ref={mainRef} tabIndex={-1} className="shell__main">
        <Outlet />
      </main>
    </div>
  );
}

/** Tabs a phone's bottom bar shows before the rest go under More. */
const TAB_SLOTS = 4;

/**
 * The More tab of the phone tab bar: a menu of the pages that do not fit. Hidden on wide screens,
 * where every page is in the header. Closes on navigation, Escape and a tap outside; shows as the
 * current tab while one of its pages is open.
 */
function MoreMenu({ pages }: { pages: readonly ShellPage[] }): ReactElement {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const box = useRef<HTMLLIElement>(null);
  const menuId = useId();
  const current = pages.some((p) => matchPath({ path: pageHref(p), end: false }, location.pathname));

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onDown = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
    };
  }, [open]);

  return (
    <li className="nav-more" ref={box}>
      <button
        type="button"
        className={current ? 'nav-link nav-more__button nav-more__button--current' : 'nav-link nav-more__button'}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="more" />
        <span className="nav-link__label">More</span>
      </button>
      <ul id={menuId} className="nav-more__menu" hidden={!open}>
        {pages.map((p) => (
          <li key={p.id}>
            <NavLink to={pageHref(p)} className="nav-more__link">
              <Icon name={p.icon} />
              <span>{p.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}
