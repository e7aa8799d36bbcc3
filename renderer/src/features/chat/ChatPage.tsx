// The Chat page (/chat and /chat/:id): the member's own conversations in a drawer (a side column
// on wide screens, a sheet on phones) and the open conversation with its composer. One page for
// both paths, so an answer keeps arriving while the address changes from /chat to /chat/:id.
// While chat cannot answer (no runtime, no chat model) the page says why and what an admin does,
// with Check again to ask once more (the runtime may have been started meanwhile).
import { useEffect, useState, type ReactElement } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { MemberCompanion } from '../../api/types';
import { useUser } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { Sheet } from '../../ui/Sheet';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { ChatDrawer } from './ChatDrawer';
import { ConversationView } from './ConversationView';
import { useChatReadiness, useConversation } from './queries';
import { useChatStream } from './useChatStream';
import { useCompanions } from '../companions';
import { SkillMenu, useKnownSkill } from '../skills';
import { VoiceModeButton, VoiceModePanel } from '../voice';
import './chat.css';
import { fmt } from '../../ui/locale';

/**
 * The line above a chat with a companion (?companion=<id> from the Companions page, or the
 * conversation's own companion when it is re-opened): who answers,
 * and its greeting while the chat is new. A companion the member may not use is said so, and the
 * household assistant answers instead (the chat does not send its id).
 */
function CompanionLine({ companion, loading, fresh }: { companion: MemberCompanion | undefined; loading: boolean; fresh: boolean }): ReactElement | null {
  if (loading) return null;
  if (!companion)
    return (
      <p className="chat-companion" role="status">
        That companion is not available to you, so the household assistant answers. <Link to="/companions">Your companions</Link>
      </p>
    );
  return (
    <div className="chat-companion" data-testid="chat-companion">
      <span aria-hidden="true">{companion.avatar}</span>
      <p className="chat-companion__text">
        <strong>{companion.name}</strong> answers in this chat.{fresh ? ` “${companion.greeting}”` : ''}
      </p>
    </div>
  );
}

const WIDE_QUERY = '(min-width: 900px)';

function useWide(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia?.(WIDE_QUERY).matches === true);
  useEffect(() => {
    const mq = window.matchMedia?.(WIDE_QUERY);
    if (!mq) return;
    const change = () => setWide(mq.matches);
    mq.addEventListener('change', change);
    return () => mq.removeEventListener('change', change);
  }, []);
  return wide;
}

export function ChatPage(): ReactElement {
  const user = useUser();
  const params = useParams();
  const id = (params['*'] ?? '').split('/')[0] || undefined;
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const wide = useWide();
  const [drawerOpen, setDrawerOpen] = useState(false);
  /** Hands-free voice mode: above the conversation, so it stays open when a new chat gets its address. */
  const [voiceMode, setVoiceMode] = useState(false);
  const readiness = useChatReadiness();
  /** When the member last asked to check again (shown while chat still cannot answer). */
  const [checkedAt, setCheckedAt] = useState<string | null>(null);
  const recheck = async () => {
    await readiness.refetch();
    setCheckedAt(fmt().time(new Date()));
  };
  const stream = useChatStream();
  const conversation = useConversation(id, stream.streamingId !== null && stream.streamingId === id);
  // the companion: the one the Companions page asked for, else the one the conversation was had with
  // (kept with it by the server, so a chat re-opened from the list still speaks as its companion)
  const wantedCompanion = search.get('companion') ?? (id ? conversation.data?.companionId : null) ?? undefined;
  const companions = useCompanions(wantedCompanion !== undefined);
  const companion = wantedCompanion ? companions.data?.find((c) => c.id === wantedCompanion) : undefined;
  // the skill picked in the menu above the chat, kept in the address with the conversation
  const wantedSkill = search.get('skill') ?? undefined;
  const skillKnown = useKnownSkill(wantedSkill);
  const skillId = skillKnown ? wantedSkill : undefined;
  const query = new URLSearchParams();
  if (companion) query.set('companion', companion.id);
  if (wantedSkill) query.set('skill', wantedSkill);
  const companionQuery = query.size ? `?${query.toString()}` : '';
  const pickSkill = (next: string | undefined) => {
    const q = new URLSearchParams(search);
    if (next) q.set('skill', next);
    else q.delete('skill');
    setSearch(q, { replace: true });
  };
  usePageTitle(conversation.data?.title ?? 'Chat');

  // a new conversation or another one opened: the phone's drawer gets out of the way
  useEffect(() => setDrawerOpen(false), [id]);

  const drawer = (
    <ChatDrawer
      currentId={id}
      busy={stream.streamingId !== null}
      onNew={() => {
        setDrawerOpen(false);
        void navigate('/chat');
      }}
      onOpen={() => setDrawerOpen(false)}
    />
  );

  let body: ReactElement;
  if (readiness.isPending) body = <LoadingState label="Checking that chat can answer…" />;
  else if (readiness.data && !readiness.data.available && !id)
    body = (
      <EmptyState
        icon="warn"
        title="Chat cannot answer right now"
        action={
          <div className="chat-recheck">
            <button type="button" className="btn btn--secondary" onClick={() => void recheck()} disabled={readiness.isFetching}>
              {readiness.isFetching ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
              {readiness.isFetching ? 'Checking…' : 'Check again'}
            </button>
            <p className="muted chat-recheck__when" role="status">
              {checkedAt && !readiness.isFetching ? `Checked again at ${checkedAt}: still not ready.` : ''}
            </p>
          </div>
        }
      >
        {readiness.data.unavailableReason ?? 'The assistant is not ready.'}{' '}
        {user.role === 'admin' ? (readiness.data.fix ?? '') : `An admin can fix this. ${readiness.data.fix ?? 'Chat is set up in Admin › Features.'}`}
      </EmptyState>
    );
  else if (id && conversation.isPending) body = <LoadingState label="Opening the chat…" />;
  else if (id && conversation.error)
    body =
      (conversation.error as { status?: number }).status === 404 ? (
        <EmptyState
          icon="search"
          title="This chat is not there any more"
          action={
            <Link to="/chat" className="btn btn--primary">
              Start a new chat
            </Link>
          }
        >
          It may have been deleted, perhaps on another device.
        </EmptyState>
      ) : (
        <ErrorState title="This chat did not open" error={conversation.error} onRetry={() => void conversation.refetch()} />
      );
  else
    body = (
      <ConversationView
        key={id ?? 'new'}
        userId={user.id}
        conversation={id ? conversation.data : undefined}
        stream={stream}
        readiness={readiness.data}
        companionId={companion?.id}
        skillId={skillId}
        onAccepted={(newId) => {
          if (newId !== id) void navigate(`/chat/${newId}${companionQuery}`, { replace: id === undefined });
        }}
      />
    );

  return (
    <section className={wide ? 'page chat chat--wide' : 'page chat'} aria-labelledby="chat-title">
      {wide ? <aside className="chat__drawer" aria-label="Your chats">{drawer}</aside> : null}
      <div className="chat__main">
        <div className="chat__head">
          {!wide ? (
            <button type="button" className="btn btn--secondary btn--compact" onClick={() => setDrawerOpen(true)} aria-haspopup="dialog">
              <Icon name="list" size={20} />
              Chats
            </button>
          ) : null}
          <h1 id="chat-title" className="chat__title">
            {id ? (conversation.data?.title ?? 'Chat') : 'New chat'}
          </h1>
          {readiness.data?.available ? <VoiceModeButton open={voiceMode} onToggle={() => setVoiceMode((on) => !on)} /> : null}
          {!wide && id ? (
            <Link to="/chat" className="btn btn--ghost btn--compact" aria-label="New chat" title="New chat">
              <Icon name="plus" size={20} />
            </Link>
          ) : null}
        </div>
        {readiness.data?.available ? <SkillMenu value={wantedSkill} onChange={pickSkill} /> : null}
        {wantedCompanion ? <CompanionLine companion={companion} loading={companions.isPending} fresh={!id} /> : null}
        {voiceMode && readiness.data?.available ? (
          <VoiceModePanel
            busy={stream.streamingId !== null}
            onAsk={(said, onToken) =>
              stream.send({ message: said, onToken, companionId: companion?.id, skillId, conversationId: id }, (newId) => {
                if (newId !== id) void navigate(`/chat/${newId}${companionQuery}`, { replace: id === undefined });
              })
            }
            onClose={() => setVoiceMode(false)}
          />
        ) : null}
        {body}
      </div>
      {!wide ? (
        <Sheet open={drawerOpen} onClose={() => setDrawerOpen(false)} title="Your chats" side="left" testId="chat-drawer">
          {drawer}
        </Sheet>
      ) : null}
    </section>
  );
}
