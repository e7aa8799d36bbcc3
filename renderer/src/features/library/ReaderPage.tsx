// The reader: one archive in a frame on the content proxy (sandboxed by its CSP into an opaque
// origin, so nothing in an archive can act as the viewer), with a search box (the
// archive's own full-text search), Shuffle (a random article), back to the Library, and the
// archive pages in dark mode when the app is (cookie ld-theme, read by the proxy).
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { ArchiveIcon, ARCHIVES_ADMIN_HREF } from './LibraryPage';
import './library.css';
import { useInstalledArchives } from './queries';
import { viewBase, type InstalledArchive } from './types';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const prefersDark = () => typeof window !== 'undefined' && window.matchMedia?.(DARK_QUERY).matches === true;

/** The proxy styles archive pages dark when this cookie says so. */
function writeThemeCookie(dark: boolean): void {
  document.cookie = `ld-theme=${dark ? 'dark' : 'light'}; path=/api/archives/view; SameSite=Lax; max-age=31536000`;
}

/** Follows the system colour scheme (the app's own dark mode), keeping the cookie in step. */
function useDarkMode(): boolean {
  const [dark, setDark] = useState(() => {
    const d = prefersDark();
    writeThemeCookie(d);
    return d;
  });
  useEffect(() => {
    const mq = window.matchMedia?.(DARK_QUERY);
    if (!mq) return;
    const onChange = () => {
      writeThemeCookie(mq.matches);
      setDark(mq.matches);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  return dark;
}

export function ReaderPage(): ReactElement {
  const { sourceId = '' } = useParams();
  const location = useLocation();
  const user = useUser();
  const installed = useInstalledArchives();
  const archive = installed.data?.archives.find((a) => a.sourceId === sourceId);

  return (
    <section className="page archive-reader" aria-labelledby="reader-title">
      <div className="archive-reader__head">
        <Link to="/library" className="btn btn--ghost btn--compact archive-reader__back">
          <Icon name="back" size={20} />
          Library
        </Link>
        <h1 id="reader-title" className="archive-reader__title">
          {archive ? (
            <>
              <ArchiveIcon src={archive.zimIconUrl} size={28} />
              <span>{archive.label}</span>
            </>
          ) : (
            'Reader'
          )}
        </h1>
      </div>
      {!installed.data ? (
        installed.error ? (
          <ErrorState title="The archive did not load" error={installed.error} onRetry={() => void installed.refetch()} />
        ) : (
          <LoadingState label="Opening the archive…" />
        )
      ) : !archive ? (
        <EmptyState
          title="This archive is not installed"
          action={
            user.role === 'admin' ? (
              <Link to={ARCHIVES_ADMIN_HREF} className="btn btn--primary">
                <Icon name="archive" size={20} />
                Go to Archives
              </Link>
            ) : (
              <Link to="/library" className="btn btn--secondary">
                <Icon name="book" size={20} />
                Back to the Library
              </Link>
            )
          }
        >
          {user.role === 'admin'
            ? 'You can download it on the Archives page.'
            : 'It may have been removed. Ask an admin to install it again.'}
        </EmptyState>
      ) : (
        <Reader key={archive.sourceId} archive={archive} article={articlePath(location.pathname)} />
      )}
    </section>
  );
}

/**
 * The article a link opens, as written after /read/<sourceId>/ (still encoded, as the address bar
 * has it): search results and chat's sources link straight to one.
 */
function articlePath(pathname: string): string {
  const m = /^\/read\/[^/]+\/(.+)$/.exec(pathname);
  if (!m) return '';
  // only paths inside this archive's view: no dot segments, however written
  const inside = m[1]!.split('/').every((seg) => !/^(\.|%2e){1,2}$/i.test(seg) && !/%2f|%5c|\\/i.test(seg));
  return inside ? m[1]! : '';
}

function Reader({ archive, article }: { archive: InstalledArchive; article: string }): ReactElement {
  const dark = useDarkMode();
  const frame = useRef<HTMLIFrameElement>(null);
  const [query, setQuery] = useState('');
  const base = viewBase(archive.sourceId);
  const firstTheme = useRef(dark);

  /**
   * Navigates the frame, so its own back/forward history keeps working. The archive runs
   * sandboxed in an opaque origin, so of its location only the href setter is open to this page.
   */
  const open = (url: string) => {
    const win = frame.current?.contentWindow;
    try {
      if (win) {
        win.location.href = url;
        return;
      }
    } catch {
      // not reachable; fall back to the attribute
    }
    if (frame.current) frame.current.src = url;
  };

  // the colour scheme changed: the cookie is already rewritten, load the frame again in the new
  // theme (the sandboxed page's own location cannot be read or reloaded from here)
  useEffect(() => {
    if (dark === firstTheme.current) return;
    firstTheme.current = dark;
    if (frame.current) frame.current.src = String(frame.current.src);
  }, [dark]);

  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (!q) return;
    open(`${base}search?pattern=${encodeURIComponent(q)}`);
  };

  return (
    <>
      <div className="archive-reader__bar">
        <form role="search" className="archive-reader__search" onSubmit={search} aria-label={`Search ${archive.label}`}>
          <label htmlFor="reader-q" className="visually-hidden">
            Search {archive.label}
          </label>
          <input
            id="reader-q"
            className="input"
            type="search"
            enterKeyHint="search"
            placeholder={`Search ${archive.label}`}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <button type="submit" className="btn btn--secondary btn--icon" aria-label="Search" disabled={!query.trim()}>
            <Icon name="search" size={20} />
          </button>
        </form>
        <button type="button" className="btn btn--secondary btn--compact" onClick={() => open(`${base}random`)}>
          <Icon name="shuffle" size={20} />
          <span className="btn__label">Shuffle</span>
        </button>
        <button type="button" className="btn btn--ghost btn--icon" aria-label="Archive home page" onClick={() => open(base)}>
          <Icon name="home" size={20} />
        </button>
      </div>
      {!archive.ready ? (
        <p className="muted archive-reader__note" role="status">
          This archive is still being opened; the page below refreshes by itself.
        </p>
      ) : null}
      <iframe ref={frame} className="archive-reader__frame" title={`${archive.label} content`} src={base + article} data-testid="reader-frame" />
    </>
  );
}
