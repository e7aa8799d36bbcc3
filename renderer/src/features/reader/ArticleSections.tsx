// Sections of ArticlePage.tsx (ArticlePage), each drawn by the page; its side panels are in ArticlePanels.tsx.
import { lazy, Suspense, useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { api, errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, FormError } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { ArchiveBadge, Favicon, readingTime, TagChips } from './parts';
import { useAfterFirstPaint } from '../../ui/hooks';
import { usePatchItem, useRearchive, type PatchVars } from './queries';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { SpeakButton } from '../voice';
import { AiPanel, MonitorPanel } from './ArticlePanels';
import { hostOf, isBusy, itemTitle, STATUS_TEXT, type FullReaderItem, type PatchItemBody, type ProbeResult } from './types';


export type View = 'reader' | 'live' | 'archived';

// The overflow menu's Edit and Delete dialogs are fetched when first opened, not with the article.
export const EditDialog = lazy(() => import('./ArticleDialogs').then((m) => ({ default: m.EditDialog })));
export const DeleteDialog = lazy(() => import('./ArticleDialogs').then((m) => ({ default: m.DeleteDialog })));
// The "More actions" menu (and Radix with it) is fetched when first wanted: a plain button of the same
// name stands in until then; pointing at it or focusing it starts the fetch.
export let menuModule: ReturnType<typeof importMenu> | undefined;
export const importMenu = () => import('./ArticleMenu');
export const loadMenu = () => (menuModule ??= importMenu());
export const ArticleMenu = lazy(() => loadMenu().then((m) => ({ default: m.ArticleMenu })));

export function BackLink(): ReactElement {
  return (
    <Link to="/reader" className="btn btn--ghost btn--compact reader-article__back">
      <Icon name="back" size={20} />
      Reader
    </Link>
  );
}

/**
 * The "More actions" button before its menu has loaded (ArticleMenu draws the same): pressing it
 * loads the menu, which opens at once; while it loads (`onOpen` absent) a press does nothing.
 */
export function MoreButton({ busy, onOpen }: { busy: boolean; onOpen?: (byKeyboard: boolean) => void }): ReactElement {
  const load = () => void loadMenu().catch(() => undefined); // a failure shows when the menu is wanted
  return (
    <button
      type="button"
      className="btn btn--secondary btn--compact"
      aria-label="More actions"
      aria-haspopup="menu"
      aria-expanded={false}
      disabled={busy}
      onPointerEnter={load}
      onFocus={load}
      // a click from Enter or Space has no pointer position (detail 0)
      onClick={(e) => onOpen?.(e.detail === 0)}
    >
      {busy ? <Spinner size={20} /> : <Icon name="more" size={20} />}
      More
    </button>
  );
}

export function Article({ item: saved, onDeleted }: { item: FullReaderItem; onDeleted: () => void }): ReactElement {
  const [probe, setProbe] = useState<ProbeResult | null>(null);
  const [view, setView] = useState<View | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const toast = useToast();
  const patchItem = usePatchItem(saved.id);
  // switches and selects move at once (the cache tells the page a tick later): the fields being
  // changed show over the saved item until the change has ended, and go back if Hearth refuses
  const [changing, setChanging] = useState<Partial<FullReaderItem> | null>(null);
  useEffect(() => {
    if (!patchItem.isPending) setChanging(null);
  }, [saved, patchItem.isPending]);
  const item: FullReaderItem = changing ? { ...saved, ...changing } : saved;
  const rearchiveItem = useRearchive();
  // which part of the page is waiting on Hearth; what failed carries the key of the part that asked
  // (its message shows beside that part)
  const busy = patchItem.isPending ? (patchItem.variables.key ?? 'status') : rearchiveItem.isPending ? 'rearchive' : null;
  const failed = patchItem.isError ? { key: patchItem.variables?.key ?? 'status', error: patchItem.error } : rearchiveItem.isError ? { key: 'rearchive', error: rearchiveItem.error } : null;
  const error = failed ? { key: failed.key, message: errorMessage(failed.error) } : null;
  const [dialog, setDialog] = useState<null | 'edit' | 'delete'>(null);
  // null until "More actions" is first pressed; then the Radix menu (ArticleMenu.tsx) takes over
  const [menu, setMenu] = useState<null | { byKeyboard: boolean }>(null);
  // what is not needed to read the text is asked for once the text is on screen
  const shown = useAfterFirstPaint();
  const user = useUser();
  // Opening an own unread saved article makes it "reading": asked for here with a PATCH, since the
  // GET that loads it changes nothing (a link from another site must not change anyone's data).
  // If it fails the item stays unread; the Mark read action is there.
  const marked = useRef(false);
  const { mutate: markReading } = usePatchItem(saved.id);
  useEffect(() => {
    if (!shown || saved.status !== 'unread' || saved.type !== 'offline' || saved.ownerId !== user.id || marked.current) return;
    marked.current = true;
    markReading({ body: { status: 'reading' } });
  }, [shown, saved, user.id, markReading]);

  // whether the live page may be framed: the proxy always may; otherwise ask the probe once
  useEffect(() => {
    if (item.useProxy || !shown) return;
    const controller = new AbortController();
    api.get<ProbeResult>(`/api/reader/probe?url=${encodeURIComponent(item.url)}`, { signal: controller.signal }).then(setProbe, () => undefined);
    return () => controller.abort();
  }, [item.url, item.useProxy, shown]);

  const hasReader = Boolean(item.contentHtml);
  const canEmbed = item.useProxy || Boolean(probe && probe.reachable && !probe.framesBlocked);
  const views: View[] = [...(hasReader ? (['reader'] as const) : []), ...(canEmbed ? (['live'] as const) : []), ...(item.snapshotUrl ? (['archived'] as const) : [])];
  // useEmbed: the owner prefers the live page inside Hearth when the site allows it
  const preferred: View | undefined = item.useEmbed && canEmbed ? 'live' : views[0];
  const current: View | null = view && views.includes(view) ? view : (preferred ?? null);

  const starting = () => {
    setNotice(null);
    patchItem.reset();
    rearchiveItem.reset();
  };
  const patch = (key: string, body: PatchItemBody, message: string | null) => {
    starting();
    const { collectionName: _name, ...fields } = body;
    setChanging(fields);
    patchItem.mutate({ key, body } satisfies PatchVars, { onSuccess: () => setNotice(message) });
  };
  const rearchive = () => {
    starting();
    const message = item.type === 'offline' || item.autoUpdate ? 'Hearth is saving a fresh copy.' : 'Hearth is refreshing the preview picture.';
    rearchiveItem.mutate(item.id, { onSuccess: () => setNotice(message) });
  };

  const site = item.siteName?.trim() || hostOf(item.url);
  const meta = [item.byline?.trim() ? `by ${item.byline.trim()}` : null, readingTime(item)].filter(Boolean).join(' · ');

  return (
    <article className="page reader-article" aria-labelledby="article-title">
      <BackLink />
      <header className="reader-article__head">
        <p className="reader-item__site">
          <Favicon src={item.faviconUrl} />
          <span>{site}</span>
        </p>
        <h1 id="article-title" className="page__title reader-article__title">
          {itemTitle(item)}
        </h1>
        {meta ? <p className="muted reader-article__meta">{meta}</p> : null}
        <div className="reader-item__badges">
          <span className={`badge reader-badge reader-badge--${item.status}`} data-testid="article-status">
            {STATUS_TEXT[item.status]}
          </span>
          <span className="badge reader-badge">{item.type === 'offline' ? 'Offline' : 'Live link'}</span>
          {item.isGlobal ? <span className="badge badge--accent reader-badge">Household</span> : null}
          <ArchiveBadge item={item} />
        </div>
        <TagChips tags={item.tags} />
      </header>

      {/* one primary action; everything else in the "More actions" menu */}
      <div className="reader-article__toolbar">
        <a className="btn btn--primary btn--compact" href={item.url} target="_blank" rel="noopener noreferrer">
          <Icon name="external" size={20} />
          Open original
        </a>
        {item.contentText?.trim() ? <SpeakButton text={item.contentText} markdown={false} /> : null}
        {item.canEdit ? (
          menu === null ? (
            <MoreButton busy={busy !== null} onOpen={(byKeyboard) => setMenu({ byKeyboard })} />
          ) : (
            <Suspense fallback={<MoreButton busy />}>
              <ArticleMenu
                item={item}
                busy={busy !== null}
                byKeyboard={menu.byKeyboard}
                onToggleRead={() => patch('status', { status: item.status === 'unread' ? 'reading' : 'unread' }, item.status === 'unread' ? 'Marked as read.' : 'Marked as unread.')}
                onToggleArchived={() => patch('status', { status: item.status === 'archived' ? 'reading' : 'archived' }, item.status === 'archived' ? 'Back in your reading list.' : 'Archived.')}
                onEdit={() => setDialog('edit')}
                onRearchive={rearchive}
                onDelete={() => setDialog('delete')}
              />
            </Suspense>
          )
        ) : null}
      </div>

      <p className="notice" role="status" aria-live="polite" data-testid="article-notice">
        {notice ?? ''}
      </p>
      <FormError message={error && error.key !== 'monitor' ? error.message : null} />

      {isBusy(item) ? (
        <p className="banner banner--info" role="status">
          <Spinner size={20} />
          <span>Hearth is saving a copy of this page. It appears here when it is ready.</span>
        </p>
      ) : null}

      {views.length > 1 ? (
        <SegmentedControl
          label="How to show it"
          className="reader-article__views"
          value={current}
          onChange={setView}
          options={views.map((v) => ({ value: v, label: v === 'reader' ? 'Reader' : v === 'live' ? 'Live page' : 'Full page', ariaLabel: v === 'reader' ? 'Reader view' : v === 'live' ? 'Live page' : 'Archived full page' }))}
        />
      ) : null}

      {current === 'reader' ? (
        <ReaderContent html={item.contentHtml ?? ''} />
      ) : current === 'live' ? (
        <div className="reader-frame">
          {/* the site runs in its own origin and may not navigate Hearth; the proxied page (same
              origin) gets no same-origin rights at all */}
          <iframe
            title={`Live page: ${itemTitle(item)}`}
            src={item.useProxy ? `/api/proxy/${encodeURIComponent(item.id)}` : item.url}
            sandbox={item.useProxy ? 'allow-scripts allow-forms allow-popups' : 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox'}
            referrerPolicy="no-referrer"
            loading="lazy"
          />
        </div>
      ) : current === 'archived' && item.snapshotUrl ? (
        <div className="reader-frame">
          <iframe title={`Archived full page: ${itemTitle(item)}`} src={item.snapshotUrl} sandbox="" loading="lazy" />
          <a className="btn btn--ghost btn--compact" href={item.snapshotUrl} target="_blank" rel="noopener noreferrer">
            <Icon name="external" size={20} />
            Open the archived page in a new tab
          </a>
        </div>
      ) : isBusy(item) ? null : item.archiveState === 'failed' ? (
        <EmptyState
          title="Hearth could not save a copy"
          action={
            item.canEdit ? (
              <button type="button" className="btn btn--primary" onClick={rearchive} disabled={busy !== null}>
                {busy === 'rearchive' ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
                Retry
              </button>
            ) : undefined
          }
        >
          {item.archiveError ?? 'The page could not be saved.'} The link stays in your Reader; Open original shows the site itself.
        </EmptyState>
      ) : (
        <EmptyState title={item.type === 'live' ? 'This link opens in a new tab' : 'No offline copy yet'}>
          {item.type === 'live'
            ? probe?.framesBlocked
              ? 'This site can’t be shown inside Hearth; Open original shows it in a new tab.'
              : 'Hearth keeps this as a live link to the site; Open original shows it in a new tab.'
            : 'There is no readable copy of this page yet.'}
        </EmptyState>
      )}

      {item.contentText?.trim() ? <AiPanel item={item} /> : null}
      {/* watching needs an address Hearth can fetch again (every Reader item has one today; the
          server still refuses a private or local one, with the reason beside the switch) */}
      {item.canEdit && /^https?:\/\//i.test(item.url) ? <MonitorPanel item={item} busy={busy} error={error?.key === 'monitor' ? error.message : null} onPatch={patch} /> : null}

      <Suspense fallback={null}>
      {dialog === 'edit' ? (
        <EditDialog
          item={item}
          onClose={() => setDialog(null)}
          onSaved={(message) => {
            setDialog(null);
            setNotice(null);
            toast(message);
          }}
        />
      ) : null}
      {dialog === 'delete' ? <DeleteDialog item={item} onClose={() => setDialog(null)} onDeleted={onDeleted} /> : null}
      </Suspense>
    </article>
  );
}

/** The article (sanitized on the server); its links open in a new tab instead of leaving Hearth. */
export function ReaderContent({ html }: { html: string }): ReactElement {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const a of ref.current?.querySelectorAll<HTMLAnchorElement>('a[href]') ?? []) {
      if (a.getAttribute('href')?.startsWith('#')) continue;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
    }
  }, [html]);
  return <div ref={ref} className="reader-content" data-testid="reader-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
