// The Media page's pieces: a poster card (through Hearth's image proxy, never the server's address),
// a rail of cards with its own loading, empty and error lines, and the words for an item.
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon } from '../../ui/icons';
import { titleHref, type MediaItem } from './queries';

/** "Harbor Lights · Season 1", "Harbor Lights · S1 E3", "The Night Harbor (2019)". */
export function itemTitle(item: MediaItem): string {
  if (item.kind === 'episode') return `${item.showTitle ?? item.title} · S${item.season ?? '?'} E${item.episode ?? '?'}`;
  if (item.kind === 'season') return `${item.showTitle ?? ''}${item.showTitle ? ' · ' : ''}${item.title}`;
  return item.year ? `${item.title} (${item.year})` : item.title;
}

/** The second line under a poster. */
export function itemSubtitle(item: MediaItem): string | null {
  if (item.kind === 'episode') return item.title;
  if (item.watched) return 'Watched';
  if (item.viewOffsetMs && item.durationMs) return `${Math.max(1, Math.round((item.durationMs - item.viewOffsetMs) / 60_000))} min left`;
  return null;
}

export function Poster({ item, size = 'card' }: { item: MediaItem; size?: 'card' | 'large' }): ReactElement {
  return (
    <span className={`media-poster media-poster--${size}`}>
      {item.thumbUrl ? <img src={item.thumbUrl} alt="" loading="lazy" /> : <Icon name="play" size={32} />}
      {item.watched ? (
        <span className="media-poster__badge">
          <Icon name="check" size={16} /> Watched
        </span>
      ) : null}
    </span>
  );
}

export function MediaCard({ item, note }: { item: MediaItem; note?: ReactNode }): ReactElement {
  const progress = item.viewOffsetMs && item.durationMs ? Math.min(1, item.viewOffsetMs / item.durationMs) : null;
  const sub = note ?? itemSubtitle(item);
  return (
    <Link className="media-card" to={titleHref(item.ratingKey)}>
      <Poster item={item} />
      {progress !== null ? (
        <span className="media-card__progress" aria-hidden="true">
          <span style={{ width: `${Math.round(progress * 100)}%` }} />
        </span>
      ) : null}
      <span className="media-card__title">{itemTitle(item)}</span>
      {sub ? <span className="media-card__sub muted">{sub}</span> : null}
    </Link>
  );
}

interface RailProps {
  id: string;
  title: string;
  loading: boolean;
  error: unknown;
  empty: string;
  count: number;
  children: ReactNode;
}

/** A titled row of cards; its own error is a sentence in place (the other rails keep working). */
export function Rail({ id, title, loading, error, empty, count, children }: RailProps): ReactElement {
  return (
    <section className="media-rail" aria-labelledby={`${id}-title`} data-testid={`rail-${id}`}>
      <h2 id={`${id}-title`} className="media-rail__title">
        {title}
      </h2>
      {loading ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : error ? (
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>{errorMessage(error)}</span>
        </p>
      ) : count === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="media-rail__list">{children}</ul>
      )}
    </section>
  );
}
