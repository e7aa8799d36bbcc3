// Library: the household's offline archives on two shelves. Reference (encyclopedias, dictionaries,
// medical guides) and Books, grouped by their book category. Each opens in the reader.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import './library.css';
import { useArchivesStatus, useInstalledArchives } from './queries';
import { isBook, type InstalledArchive } from './types';

export const ARCHIVES_ADMIN_HREF = '/admin/archives';

/** Said when the member's content level left an installed archive out (issue 32). */
const HIDDEN_SENTENCE = 'Some archives are hidden by your content settings.';

export function LibraryPage(): ReactElement {
  const user = useUser();
  const isAdmin = user.role === 'admin';
  const installed = useInstalledArchives();
  const status = useArchivesStatus();

  const archives = installed.data?.archives ?? [];
  const reference = archives.filter((a) => !isBook(a)).sort(byLabel);
  const books = archives.filter(isBook).sort(byLabel);
  const shelves = new Map<string, InstalledArchive[]>();
  for (const b of books) {
    const key = b.bookCategory ?? 'Other books';
    shelves.set(key, [...(shelves.get(key) ?? []), b]);
  }
  const st = status.data;

  return (
    <section className="page library" aria-labelledby="library-title">
      <div className="page__head">
        <div>
          <h1 id="library-title" className="page__title">
            Library
          </h1>
          <p className="muted">Encyclopedias, guides and books that work without the internet.</p>
        </div>
        {isAdmin ? (
          <div className="page__actions">
            <Link to={ARCHIVES_ADMIN_HREF} className="btn btn--secondary btn--compact">
              <Icon name="archive" size={20} />
              Manage archives
            </Link>
          </div>
        ) : null}
      </div>

      {st && archives.length > 0 && (!st.kiwixInstalled || st.kiwixState === 'failed') ? (
        <p className="banner banner--warn" data-testid="library-runtime-banner">
          <Icon name="warn" size={22} />
          <span>
            The archive server is not running, so archives may not open.{' '}
            {isAdmin ? <Link to={ARCHIVES_ADMIN_HREF}>Check it on the Archives page.</Link> : 'Let an admin know.'}
            {st.kiwixError ? ` (${st.kiwixError})` : ''}
          </span>
        </p>
      ) : null}

      {!installed.data ? (
        installed.error ? (
          <ErrorState title="The library did not load" error={installed.error} onRetry={() => void installed.refetch()} />
        ) : (
          <LoadingState label="Loading the library…" />
        )
      ) : archives.length === 0 ? (
        <EmptyState
          title="The shelves are empty"
          action={
            isAdmin ? (
              <Link to={ARCHIVES_ADMIN_HREF} className="btn btn--primary">
                <Icon name="download" size={20} />
                Add archives
              </Link>
            ) : null
          }
        >
          {installed.data.hiddenByContent
            ? HIDDEN_SENTENCE
            : isAdmin
              ? 'Download encyclopedias, medical guides and books on the Archives page; they appear here for everyone.'
              : 'No archives are installed yet. Ask an admin to add encyclopedias or books.'}
        </EmptyState>
      ) : (
        <>
          {installed.error ? <p className="form-error">Could not refresh: {errorMessage(installed.error)}</p> : null}
          {installed.data.hiddenByContent ? (
            <p className="muted" data-testid="library-hidden">
              {HIDDEN_SENTENCE}
            </p>
          ) : null}
          {reference.length ? (
            <Shelf id="reference" title="Reference" archives={reference} />
          ) : null}
          {books.length ? (
            <section className="shelf" aria-labelledby="shelf-books-title" data-testid="shelf-books">
              <h2 id="shelf-books-title" className="shelf__title">
                Books
              </h2>
              {[...shelves.entries()]
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([category, list]) => (
                  <section key={category} className="shelf__group" aria-label={category}>
                    <h3 className="shelf__subtitle">{category}</h3>
                    <ArchiveList archives={list} />
                  </section>
                ))}
            </section>
          ) : null}
        </>
      )}
    </section>
  );
}

const byLabel = (a: InstalledArchive, b: InstalledArchive) => a.label.localeCompare(b.label);

function Shelf({ id, title, archives }: { id: string; title: string; archives: InstalledArchive[] }): ReactElement {
  return (
    <section className="shelf" aria-labelledby={`shelf-${id}-title`} data-testid={`shelf-${id}`}>
      <h2 id={`shelf-${id}-title`} className="shelf__title">
        {title}
      </h2>
      <ArchiveList archives={archives} />
    </section>
  );
}

function ArchiveList({ archives }: { archives: InstalledArchive[] }): ReactElement {
  return (
    <ul className="archive-grid">
      {archives.map((a) => (
        <li key={a.sourceId}>
          <Link to={`/read/${encodeURIComponent(a.sourceId)}`} className="archive-tile">
            <ArchiveIcon src={a.zimIconUrl} />
            <span className="archive-tile__text">
              <span className="archive-tile__label">{a.label}</span>
              {a.description ? <span className="archive-tile__desc">{a.description}</span> : null}
              <span className="archive-tile__meta">
                {[a.zimDate, formatBytes(a.fileSizeBytes), a.ready ? null : 'getting ready'].filter(Boolean).join(' · ')}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The archive's own 48×48 icon, or a book when it has none. */
export function ArchiveIcon({ src, size = 48 }: { src: string; size?: number }): ReactElement {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="archive-icon archive-icon--fallback" style={{ width: size, height: size }}>
        <Icon name="book" size={Math.round(size * 0.6)} />
      </span>
    );
  }
  return <img className="archive-icon" src={src} alt="" width={size} height={size} loading="lazy" onError={() => setFailed(true)} />;
}
