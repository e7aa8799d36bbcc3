// Pieces shared by the Reader screens: the site icon, the saving/failed badge, tag chips and one item
// as a list row or a grid card.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon, Spinner } from '../../ui/icons';
import { hostOf, isBusy, itemTitle, readerItemHref, STATUS_TEXT, type ReaderCollection, type ReaderItem } from './types';

/**
 * The site's icon from Hearth's own copy (/api/reader/:id/favicon, kept at each capture); the web
 * app's CSP allows only its own images (the phone does not call every saved site), so an item
 * without a copy, or one that does not load, shows the bookmark mark.
 */
export function Favicon({ src, size = 16 }: { src: string | null; size?: number }): ReactElement {
  // remembers which address failed, so an icon that arrives later (after a capture) is tried
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || !src.startsWith('/') || src.startsWith('//') || failedSrc === src) return <Icon name="bookmark" size={size} className="reader-favicon reader-favicon--fallback" />;
  return <img className="reader-favicon" src={src} alt="" width={size} height={size} loading="lazy" referrerPolicy="no-referrer" onError={() => setFailedSrc(src)} />;
}

/** pending / fetching: a spinner; failed: the reason, with Retry when the item is the user's. */
export function ArchiveBadge({ item, onRetry, retrying }: { item: ReaderItem; onRetry?: () => void; retrying?: boolean }): ReactElement | null {
  if (isBusy(item)) {
    return (
      <span className="badge badge--info reader-badge" data-testid="archive-state" data-state={item.archiveState}>
        <Spinner size={14} />
        {item.archiveState === 'pending' ? 'Waiting to save' : 'Saving a copy…'}
      </span>
    );
  }
  if (item.archiveState === 'failed') {
    return (
      <span className="reader-failed" data-testid="archive-state" data-state="failed">
        <span className="badge badge--error reader-badge">
          <Icon name="warn" size={14} />
          Could not save
        </span>
        {item.archiveError ? <span className="reader-failed__why">{item.archiveError}</span> : null}
        {onRetry ? (
          <button type="button" className="btn btn--ghost btn--compact" onClick={onRetry} disabled={retrying} aria-label={`Retry saving ${itemTitle(item)}`}>
            {retrying ? <Spinner size={18} /> : <Icon name="refresh" size={18} />}
            Retry
          </button>
        ) : null}
      </span>
    );
  }
  return null;
}

export function TagChips({ tags, active, onPick }: { tags: string[]; active?: string | null; onPick?: (tag: string) => void }): ReactElement | null {
  if (!tags.length) return null;
  return (
    <ul className="reader-tags" aria-label="Tags">
      {tags.map((t) => (
        <li key={t}>
          {onPick ? (
            <button type="button" className="reader-chip" aria-pressed={active?.toLowerCase() === t.toLowerCase()} onClick={() => onPick(t)}>
              #{t}
            </button>
          ) : (
            <span className="reader-chip reader-chip--static">#{t}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function readingTime(i: Pick<ReaderItem, 'readingMins'>): string | null {
  if (!i.readingMins) return null;
  return `${i.readingMins} min read`;
}

export interface ItemCardProps {
  item: ReaderItem;
  view: 'list' | 'grid';
  activeTag: string | null;
  onTag: (tag: string) => void;
  onRetry: (item: ReaderItem) => void;
  onHide: (item: ReaderItem, hide: boolean) => void;
  busy: boolean;
}

export function ItemCard({ item, view, activeTag, onTag, onRetry, onHide, busy }: ItemCardProps): ReactElement {
  const title = itemTitle(item);
  const site = item.siteName?.trim() || hostOf(item.url);
  const meta = [site, readingTime(item)].filter(Boolean).join(' · ');
  return (
    <li className={`reader-item reader-item--${view}${item.isHidden ? ' reader-item--hidden' : ''}`} data-testid="reader-item" data-id={item.id}>
      {item.thumbnailUrl ? (
        <img className="reader-item__thumb" src={item.thumbnailUrl} alt="" loading="lazy" onError={(e) => (e.currentTarget.style.display = 'none')} />
      ) : view === 'grid' ? (
        <span className="reader-item__thumb reader-item__thumb--empty" aria-hidden="true">
          <Favicon src={item.faviconUrl} size={28} />
        </span>
      ) : null}
      <div className="reader-item__body">
        <p className="reader-item__site">
          <Favicon src={item.faviconUrl} />
          <span>{meta}</span>
        </p>
        <h2 className="reader-item__title">
          <Link to={readerItemHref(item.id)} className="reader-item__link">
            {title}
          </Link>
        </h2>
        {item.excerpt ? <p className="reader-item__excerpt">{item.excerpt}</p> : null}
        <div className="reader-item__badges">
          {item.isGlobal ? null : <span className={`badge reader-badge reader-badge--${item.status}`}>{STATUS_TEXT[item.status]}</span>}
          <span className="badge reader-badge">{item.type === 'offline' ? 'Offline' : 'Live link'}</span>
          {item.isGlobal ? <span className="badge badge--accent reader-badge">Household</span> : null}
          {item.isHidden ? <span className="badge reader-badge">Hidden</span> : null}
          <ArchiveBadge item={item} onRetry={item.canEdit ? () => onRetry(item) : undefined} retrying={busy} />
        </div>
        <TagChips tags={item.tags} active={activeTag} onPick={onTag} />
        {item.isGlobal ? (
          <button
            type="button"
            className="btn btn--ghost btn--compact reader-item__hide"
            onClick={() => onHide(item, !item.isHidden)}
            disabled={busy}
            aria-label={`${item.isHidden ? 'Show' : 'Hide'} ${title}`}
          >
            <Icon name={item.isHidden ? 'eye' : 'eyeOff'} size={18} />
            {item.isHidden ? 'Show' : 'Hide'}
          </button>
        ) : null}
      </div>
    </li>
  );
}

export function CollectionMark({ collection }: { collection: Pick<ReaderCollection, 'icon' | 'color'> }): ReactElement {
  if (collection.icon) {
    return (
      <span className="reader-collection__icon" aria-hidden="true" style={collection.color ? { background: collection.color } : undefined}>
        {collection.icon}
      </span>
    );
  }
  return (
    <span className="reader-collection__icon" aria-hidden="true" style={collection.color ? { color: collection.color } : undefined}>
      <Icon name="folder" size={20} />
    </span>
  );
}
