// The bell in the shell header: the unread count (polled every 30 s while the tab is visible, and
// again whenever it comes back into view) and a panel with the latest notifications. Admins answer
// install requests here: Approve switches the tool on and marks the request read; Dismiss only
// marks it read (spec: neither sends the member a notification).
import { lazy, Suspense, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { Icon, Spinner, type IconName } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import type { Notification } from '../../../../server/modules/notifications/schema.js';
import { useApproveRequest, useMarkAllRead, useMarkRead, useNotifications, useUnreadCount, useNotificationsChanged } from './queries';
import './notifications.css';
import { fmt } from '../../ui/locale';

// the panel's dialog code comes with the first opening, not with every page's first screen
const Dialog = lazy(() => import('../../ui/Dialog').then((m) => ({ default: m.Dialog })));

export function NotificationBell(): ReactElement {
  const count = useUnreadCount();
  const [open, setOpen] = useState(false);
  const notificationsChanged = useNotificationsChanged();

  const shown = count > 99 ? '99+' : String(count);
  return (
    <>
      <button
        type="button"
        className="btn btn--ghost btn--icon bell"
        aria-label={count ? `Notifications, ${count} unread` : 'Notifications'}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="bell"
      >
        <Icon name="bell" />
        {count ? (
          <span className="bell__count" data-testid="bell-count" aria-hidden="true">
            {shown}
          </span>
        ) : null}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <NotificationsPanel
            onClose={() => {
              setOpen(false);
              notificationsChanged();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

const str = (p: Record<string, unknown>, ...keys: string[]): string => {
  for (const k of keys) if (typeof p[k] === 'string' && p[k]) return p[k] as string;
  return '';
};

/** What each notification type says; payloads of admin-sent types are free-form, so read them loosely. */
export function describeNotification(n: Notification): { icon: IconName; title: string; body: string } {
  const p = n.payload;
  switch (n.type) {
    case 'install_request':
      return {
        icon: 'apps',
        title: `${str(p, 'requestedByName') || 'A member'} asks for ${str(p, 'toolName', 'toolId') || 'an app'}`,
        body: str(p, 'message'),
      };
    case 'install_complete':
      return { icon: 'check', title: `${str(p, 'toolName', 'name', 'toolId') || 'An app'} is installed`, body: str(p, 'message', 'body') };
    case 'download_complete':
      return { icon: 'download', title: `${str(p, 'label', 'name', 'fileName') || 'A download'} finished downloading`, body: str(p, 'message', 'body') };
    default:
      return { icon: 'bell', title: str(p, 'title') || 'Message from Hearth', body: str(p, 'message', 'body', 'text') };
  }
}

/** Where a notification's fix is: a path of this web app only (never another site), with its label. */
function fixLink(n: Notification): { path: string; label: string } | null {
  const path = str(n.payload, 'link');
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  return { path, label: str(n.payload, 'linkLabel') || 'Open' };
}

function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (Math.abs(seconds) < 60) return 'just now';
  return fmt().relative(iso, now);
}

function NotificationsPanel({ onClose }: { onClose: () => void }): ReactElement {
  const user = useUser();
  const notifications = useNotifications();
  const data = notifications.data;
  const loadError = notifications.error;
  // after a change the panel and the bell are read again, before the busy mark goes
  const approveRequest = useApproveRequest();
  const markOne = useMarkRead();
  const markAll = useMarkAllRead();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = markAll.isPending ? 'all' : approveRequest.isPending ? approveRequest.variables.id : markOne.isPending ? markOne.variables.id : null;
  const act = async (run: () => Promise<string | null>) => {
    setNotice(null);
    setError(null);
    try {
      setNotice(await run());
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const approve = (n: Notification) =>
    act(async () => `${await approveRequest.mutateAsync({ id: n.id, toolId: str(n.payload, 'toolId') })} is installed for everyone.`);
  const markRead = (n: Notification) =>
    act(async () => {
      await markOne.mutateAsync(n);
      return null;
    });

  const list = data?.notifications ?? [];
  return (
    <Dialog open title="Notifications" onClose={onClose} testId="notifications">
      {data && data.unreadCount > 0 ? (
        <div className="notifications__bar">
          <span className="muted">{data.unreadCount} unread</span>
          <button
            type="button"
            className="btn btn--ghost btn--compact"
            disabled={busy !== null}
            onClick={() =>
              void act(async () => {
                await markAll.mutateAsync();
                return null;
              })
            }
          >
            {busy === 'all' ? <Spinner size={20} /> : <Icon name="check" size={20} />}
            Mark all read
          </button>
        </div>
      ) : null}
      <p className="notice" role="status" aria-live="polite">
        {notice ?? ''}
      </p>
      <FormError message={error} />
      {!data && !loadError ? <LoadingState label="Loading notifications…" /> : null}
      {!data && loadError ? <ErrorState title="Notifications did not load" error={loadError} onRetry={() => void notifications.refetch()} /> : null}
      {data && list.length === 0 ? <EmptyState title="Nothing here yet">Install requests and messages from Hearth appear here.</EmptyState> : null}
      {list.length > 0 ? (
        <ul className="notification-list" aria-label="Latest notifications">
          {list.map((n) => {
            const { icon, title, body } = describeNotification(n);
            const unread = !n.readAt;
            const isRequest = n.type === 'install_request' && user.role === 'admin';
            return (
              <li key={n.id} className={unread ? 'notification is-unread' : 'notification'} data-testid="notification" data-type={n.type}>
                <span className="notification__icon" aria-hidden="true">
                  <Icon name={icon} size={20} />
                </span>
                <div className="notification__main">
                  <p className="notification__title">
                    {unread ? <span className="visually-hidden">Unread: </span> : null}
                    {title}
                  </p>
                  {body ? <p className="notification__body">{n.type === 'install_request' ? `“${body}”` : body}</p> : null}
                  {fixLink(n) ? (
                    <Link className="btn btn--secondary btn--compact notification__link" to={fixLink(n)!.path} onClick={onClose}>
                      {fixLink(n)!.label}
                    </Link>
                  ) : null}
                  <p className="notification__meta muted">
                    <time dateTime={n.createdAt} title={fmt().dateTime(n.createdAt)}>
                      {timeAgo(n.createdAt)}
                    </time>
                  </p>
                  {unread ? (
                    <div className="notification__actions">
                      {isRequest ? (
                        <>
                          <button type="button" className="btn btn--primary btn--compact" disabled={busy !== null} onClick={() => void approve(n)}>
                            {busy === n.id ? <Spinner size={20} /> : null}
                            Approve
                          </button>
                          <button
                            type="button"
                            className="btn btn--secondary btn--compact"
                            disabled={busy !== null}
                            onClick={() => void markRead(n)}
                          >
                            Dismiss
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="btn btn--ghost btn--compact"
                          disabled={busy !== null}
                          onClick={() => void markRead(n)}
                        >
                          Mark read
                        </button>
                      )}
                    </div>
                  ) : null}
                </div>
                {unread ? <span className="notification__dot" aria-hidden="true" /> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
    </Dialog>
  );
}
