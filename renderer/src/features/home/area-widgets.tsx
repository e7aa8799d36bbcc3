// Home widgets for the areas that are pages of their own: Chat (recent conversations, start one),
// Media (continue watching), Inventory (warranties due), Pictures (the newest ones) and, for admins,
// Downloads. Each reads only its own area's API, says so while it loads, says what to do when there
// is nothing yet, offers Try again when its area did not answer, and says why when the area cannot
// be used (chat without a model, Media without a linked account) instead of showing nothing.
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router';
import { useChatReadiness, useConversations } from '../chat';
import { useJobsStatus } from '../downloads';
import { useHistory, artifactApi, HISTORY_HREF, CREATE_HREF } from '../image';
import { deviceHref, useWarranties } from '../inventory';
import { playHref, useFeed, useMediaStatus } from '../media';
import { ToolCard, type WidgetProps } from './widget-card';

/** The loading / error / empty / list states every area widget shares. */
function States<T>(props: {
  query: { data: T[] | undefined; isError: boolean; refetch: () => unknown };
  loading: string;
  failed: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}): ReactElement {
  const { query } = props;
  if (query.data === undefined && query.isError) {
    return (
      <p className="widget__text" role="status">
        {props.failed}{' '}
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => void query.refetch()}>
          Try again
        </button>
      </p>
    );
  }
  if (query.data === undefined) return <p className="widget__text muted">{props.loading}</p>;
  if (query.data.length === 0) return <p className="widget__text">{props.empty}</p>;
  return <>{props.children(query.data)}</>;
}

const DEFS = {
  chat: { toolId: 'chat', name: 'Chat', icon: '💬' },
  media: { toolId: 'media', name: 'Continue watching', icon: '🎬' },
  inventory: { toolId: 'inventory', name: 'Warranties due', icon: '📦' },
  images: { toolId: 'images', name: 'Recent pictures', icon: '🖼️' },
  downloads: { toolId: 'downloads', name: 'Downloads', icon: '⬇️' },
} as const;

const RECENT = 3;

export function ChatWidget({ tool }: WidgetProps): ReactElement {
  const readiness = useChatReadiness();
  const list = useConversations('');
  const query = { data: list.data?.slice(0, RECENT), isError: list.isError, refetch: list.refetch };
  const ready = readiness.data?.available !== false;
  return (
    <ToolCard tool={tool} def={DEFS.chat} text="Ask the household's own assistant; nothing leaves the house." link={{ to: '/chat', label: 'Start a chat' }}>
      {!ready ? (
        <p className="widget__text" data-testid="widget-unavailable">
          {readiness.data?.unavailableReason} {readiness.data?.fix}
        </p>
      ) : null}
      <States query={query} loading="Looking for your chats…" failed="Your chats did not load." empty="No chats yet.">
        {(items) => (
          <ul className="widget__items">
            {items.map((c) => (
              <li key={c.id}>
                <Link to={`/chat/${encodeURIComponent(c.id)}`}>{c.title || 'New chat'}</Link>
              </li>
            ))}
          </ul>
        )}
      </States>
    </ToolCard>
  );
}

export function MediaWidget({ tool }: WidgetProps): ReactElement {
  const status = useMediaStatus();
  const usable = status.data?.configured === true && status.data.linked;
  const feed = useFeed('ondeck', usable);
  const query = { data: feed.data?.items.slice(0, RECENT), isError: feed.isError, refetch: feed.refetch };
  let body: ReactNode;
  if (status.data === undefined) {
    body = status.isError ? (
      <States query={{ data: undefined, isError: true, refetch: status.refetch }} loading="" failed="Media did not answer." empty="">
        {() => null}
      </States>
    ) : (
      <p className="widget__text muted">Looking at Media…</p>
    );
  } else if (!status.data.configured) {
    body = <p className="widget__text" data-testid="widget-unavailable">No media server is connected yet. An admin connects the household's Plex under Admin › Media.</p>;
  } else if (!status.data.linked) {
    body = <p className="widget__text" data-testid="widget-unavailable">Link your Plex account on the Media page to see what you were watching.</p>;
  } else {
    body = (
      <States query={query} loading="Looking for what you were watching…" failed="Media did not answer." empty="Nothing to continue. Start something on the Media page.">
        {(items) => (
          <ul className="widget__items">
            {items.map((m) => (
              <li key={m.ratingKey}>
                <Link to={playHref(m.ratingKey)}>{m.showTitle ? `${m.showTitle}: ${m.title}` : m.title}</Link>
              </li>
            ))}
          </ul>
        )}
      </States>
    );
  }
  return (
    <ToolCard
      tool={tool}
      def={DEFS.media}
      text="Pick up where you left off."
      link={!status.data?.configured ? null : status.data.linked ? { to: '/media', label: 'Open Media' } : { to: '/media/link', label: 'Link your account' }}
    >
      {body}
    </ToolCard>
  );
}

const WARRANTY_DAYS = 60;

export function WarrantiesWidget({ tool }: WidgetProps): ReactElement {
  const res = useWarranties(WARRANTY_DAYS);
  const query = { data: res.data?.expiring.slice(0, RECENT), isError: res.isError, refetch: res.refetch };
  return (
    <ToolCard tool={tool} def={DEFS.inventory} text={`Warranties that end in the next ${WARRANTY_DAYS} days.`} link={{ to: '/inventory/warranties', label: 'All warranties' }}>
      <States query={query} loading="Looking at the warranties…" failed="The inventory did not answer." empty="No warranty ends soon.">
        {(items) => (
          <ul className="widget__items">
            {items.map((d) => (
              <li key={d.id}>
                <Link to={deviceHref(d.id)}>{d.name}</Link> <span className="muted">{d.daysLeft === 0 ? 'ends today' : d.daysLeft === 1 ? '1 day left' : `${d.daysLeft} days left`}</span>
              </li>
            ))}
          </ul>
        )}
      </States>
    </ToolCard>
  );
}

export function PicturesWidget({ tool }: WidgetProps): ReactElement {
  const res = useHistory(null);
  const items = res.data?.pages.flatMap((p) => p.items).filter((a) => a.state === 'ready').slice(0, RECENT);
  const query = { data: items, isError: res.isError, refetch: res.refetch };
  return (
    <ToolCard tool={tool} def={DEFS.images} text="Pictures you made, for your eyes only." link={{ to: HISTORY_HREF, label: 'My pictures' }}>
      <States query={query} loading="Looking for your pictures…" failed="Your pictures did not load." empty={<>No pictures yet. <Link to={CREATE_HREF}>Make one</Link>.</>}>
        {(list) => (
          <ul className="widget__pictures">
            {list.map((a) => (
              <li key={a.id}>
                <Link to={HISTORY_HREF}>
                  <img src={artifactApi(a.id)} alt={a.prompt.slice(0, 120)} width={96} height={96} loading="lazy" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </States>
    </ToolCard>
  );
}

const HOME_POLL_MS = 30_000;

export function DownloadsWidget({ tool }: WidgetProps): ReactElement {
  const status = useJobsStatus(HOME_POLL_MS);
  const data = status.data;
  let text: string;
  if (!data) text = status.error ? 'The download queue did not answer; Downloads says more.' : 'Looking at the download queue…';
  else if (data.counts.failed) text = `${data.counts.failed} failed: open Downloads to see why and retry.`;
  else if (data.counts.running + data.counts.pending) text = `${data.counts.running} downloading, ${data.counts.pending} waiting${data.paused ? ' (paused)' : ''}.`;
  else text = 'Nothing is downloading.';
  return <ToolCard tool={tool} def={DEFS.downloads} text={text} link={{ to: '/downloads', label: 'Open Downloads' }} />;
}

export const AREA_WIDGETS = DEFS;
