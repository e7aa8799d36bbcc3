// One conversation: its messages (answers as Markdown with a chip per lookup and their sources, and
// a confirm button for an action a tool only proposed, e.g. unlocking a door),
// the state of the last answer (being written, stopped, failed: with Retry), and the composer. A
// new chat shows a welcome with example questions. The view follows the answer down the page while
// it arrives, unless the member scrolled up to read.
import { useEffect, useRef, type ReactElement } from 'react';
import { Link } from 'react-router';
import type { AiStatusResponse } from '../../../../server/modules/reader/schema.js';
import { Icon, Spinner } from '../../ui/icons';
import { useTools } from '../apps';
import { SkillStarters } from '../skills';
import { Composer } from './Composer';
import { Markdown } from './Markdown';
import { ProposedHomeAction } from '../smart-home';
import { SpeakButton } from '../voice';
import { useChatModels, type ChatMessage, type Conversation, type Source, type ToolCallRecord } from './queries';
import type { ChatStream, SendArgs } from './useChatStream';

/**
 * Example questions for a new chat, each with the chat tool it needs (null: the model alone). Only
 * those that can work are offered: a tool's question shows once the household's tools are known
 * and that tool is on and available (the encyclopedia one needs an installed archive).
 */
export const EXAMPLE_QUESTIONS: ReadonlyArray<{ question: string; tool: string | null }> = [
  { question: 'What does the encyclopedia say about heat stroke?', tool: 'archive_search' },
  { question: 'What have I saved in the Reader about bread?', tool: 'reader_search' },
  { question: 'How do I treat a small burn at home?', tool: null },
];

export function workingExamples(tools: ReadonlyArray<{ id: string; enabled: boolean; available: boolean }> | undefined): string[] {
  const works = (id: string) => tools?.some((t) => t.id === id && t.enabled && t.available) === true;
  return EXAMPLE_QUESTIONS.filter((e) => e.tool === null || works(e.tool)).map((e) => e.question);
}

export interface ConversationViewProps {
  userId: string;
  conversation: Conversation | undefined;
  stream: ChatStream;
  readiness: AiStatusResponse | undefined;
  /** The companion the answers speak as (ChatPage reads it from ?companion=). */
  companionId?: string;
  /** The skill picked above the chat (ChatPage reads it from ?skill=). */
  skillId?: string;
  onAccepted: (conversationId: string) => void;
}

const NEAR_BOTTOM_PX = 120;
const pageBottom = () => document.documentElement.scrollHeight;
const nearBottom = () => window.innerHeight + window.scrollY >= pageBottom() - NEAR_BOTTOM_PX;

export function ConversationView({ userId, conversation, stream, readiness, companionId, skillId, onAccepted }: ConversationViewProps): ReactElement {
  const { tools } = useTools();
  const following = useRef(true);
  // the household's chat model, named (it may be one Hearth adopted from what Ollama already had)
  const householdModel = useChatModels().data?.chosen ?? null;
  const messages = conversation?.messages ?? [];
  const last = messages.at(-1);
  const streamingHere = stream.streamingId !== null && (stream.streamingId === conversation?.id || (!conversation && stream.streamingId === 'new'));

  useEffect(() => {
    const onScroll = () => {
      following.current = nearBottom();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // the answer grows: keep its end in view unless the member scrolled up
  const size = messages.length + (last?.content.length ?? 0) + (last?.toolCalls.length ?? 0);
  useEffect(() => {
    if (following.current && size > 0) window.scrollTo({ top: pageBottom() });
  }, [size]);

  const send = (args: SendArgs, onSent?: () => void) => {
    following.current = true;
    return stream.send({ ...args, companionId, skillId, conversationId: conversation?.id, projectId: conversation ? undefined : args.projectId }, (id) => {
      onSent?.();
      onAccepted(id);
    });
  };
  const retry = () => void stream.send({ conversationId: conversation?.id, regenerate: true, companionId, skillId });

  return (
    <div className="chat-conversation">
      {messages.length === 0 ? (
        <div className="chat-welcome">
          <Icon name="sparkles" size={32} className="chat-welcome__icon" />
          <p className="chat-welcome__title">Ask anything</p>
          <p className="muted">
            Answers come from {householdModel ? <strong data-testid="chat-model-name">{householdModel}</strong> : 'the model'} on this computer, and from your household's archives and Reader when they help. Nothing leaves the house.
          </p>
          {companionId ? null : (
            <p className="muted">
              Or ask one of <Link to="/companions">your companions</Link>, helpers with their own way of answering.
            </p>
          )}
          {readiness?.available !== false && skillId ? <SkillStarters skillId={skillId} disabled={stream.streamingId !== null} onAsk={(q) => void send({ message: q })} /> : null}
          {readiness?.available !== false && !skillId ? (
            <ul className="chat-welcome__examples" aria-label="Example questions">
              {workingExamples(tools).map((q) => (
                <li key={q}>
                  <button type="button" className="btn btn--secondary chat-welcome__example" disabled={stream.streamingId !== null} onClick={() => void send({ message: q })}>
                    {q}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <ol className="chat-messages" aria-label="Messages">
          {messages.map((m) => (
            <li key={m.id} className={`chat-message chat-message--${m.role}`}>
              {m.role === 'user' ? <UserMessage message={m} /> : <Answer message={m} isLast={m === last} canRetry={!streamingHere && stream.streamingId === null} onRetry={retry} />}
            </li>
          ))}
        </ol>
      )}
      <Composer
        userId={userId}
        conversation={conversation}
        streaming={streamingHere}
        otherBusy={stream.streamingId !== null && !streamingHere}
        refusal={stream.refusal}
        onDismissRefusal={stream.clearRefusal}
        onSend={send}
        onStop={() => void stream.stop()}
      />
    </div>
  );
}

function UserMessage({ message }: { message: ChatMessage }): ReactElement {
  return (
    <div className="chat-bubble">
      <span className="visually-hidden">You said: </span>
      {message.images.length ? (
        <div className="chat-bubble__images">
          {message.images.map((img) => (
            <img key={img.id} src={img.url} alt="A picture you sent" className="chat-bubble__image" />
          ))}
        </div>
      ) : null}
      <p className="chat-bubble__text">{message.content}</p>
    </div>
  );
}

const STATUS_TEXT = {
  stopped: 'You stopped this answer.',
  error: 'This answer broke off before it was finished.',
};

function Answer({ message, isLast, canRetry, onRetry }: { message: ChatMessage; isLast: boolean; canRetry: boolean; onRetry: () => void }): ReactElement {
  const writing = message.status === 'streaming';
  return (
    <article className="chat-answer" aria-busy={writing || undefined} aria-label="Answer">
      {message.toolCalls.length ? (
        <ul className="chat-tools" aria-label="What was looked up">
          {message.toolCalls.map((t, i) => (
            <ToolChip key={i} call={t} />
          ))}
        </ul>
      ) : null}
      {message.content ? <Markdown text={message.content} /> : null}
      {message.toolCalls.map((t, i) => (t.action ? <ProposedHomeAction key={`action-${i}`} action={t.action} /> : null))}
      {writing ? (
        <p className="chat-answer__status" role="status">
          <Spinner size={16} /> {message.content ? 'Writing…' : 'Thinking…'}
        </p>
      ) : null}
      {message.status === 'stopped' || message.status === 'error' ? (
        <div className={`chat-answer__note chat-answer__note--${message.status}`} role={message.status === 'error' ? 'alert' : undefined} data-testid="answer-note">
          <Icon name={message.status === 'error' ? 'warn' : 'pause'} size={18} />
          <span>{message.status === 'error' ? (message.error ?? STATUS_TEXT.error) : STATUS_TEXT.stopped}</span>
          {isLast && canRetry ? (
            <button type="button" className="btn btn--secondary btn--compact" onClick={onRetry}>
              <Icon name="refresh" size={18} />
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
      {message.sources.length ? <Sources sources={message.sources} /> : null}
      {message.status === 'complete' && message.content ? (
        <div className="chat-answer__actions">
          <SpeakButton text={message.content} />
        </div>
      ) : null}
      {isLast && message.status === 'complete' && canRetry ? (
        <div className="chat-answer__actions">
          <button type="button" className="btn btn--ghost btn--compact" onClick={onRetry}>
            <Icon name="refresh" size={18} />
            Regenerate
          </button>
        </div>
      ) : null}
    </article>
  );
}

/** Words for a lookup still running; its summary replaces them when it ends. */
function pendingText(call: ToolCallRecord): string {
  const query = typeof call.args.query === 'string' ? `“${call.args.query}”` : null;
  if (call.name === 'archive_search') return query ? `Looking up ${query} in the archives…` : 'Looking in the archives…';
  if (call.name === 'reader_search') return query ? `Looking for ${query} in the Reader…` : 'Looking in the Reader…';
  return 'Looking something up…';
}

function ToolChip({ call }: { call: ToolCallRecord }): ReactElement {
  const pending = call.summary === '';
  const failed = !pending && call.status !== 'ok';
  const text = pending
    ? pendingText(call)
    : call.status === 'refused'
      ? `${call.summary || 'A lookup was not allowed'}. The answer went on without it.`
      : call.status === 'error'
        ? `${call.summary || 'A lookup did not work'}. The answer went on without it.`
        : call.summary;
  return (
    <li className={failed ? 'chat-tool chat-tool--failed' : 'chat-tool'} data-testid="tool-chip">
      {pending ? <Spinner size={16} /> : <Icon name={failed ? 'warn' : 'search'} size={16} />}
      <span>{text}</span>
    </li>
  );
}

function Sources({ sources }: { sources: readonly Source[] }): ReactElement {
  return (
    <nav className="chat-sources" aria-label="Sources">
      <p className="chat-sources__title">Sources</p>
      <ul>
        {sources.map((s) => (
          <li key={s.url}>
            <Link to={s.url} className="chat-source">
              <Icon name={s.type === 'archive' ? 'book' : s.type === 'inventory' ? 'home' : 'bookmark'} size={16} />
              <span className="chat-source__kind">{s.type === 'archive' ? 'Archive' : s.type === 'inventory' ? 'Inventory' : 'Reader'}</span>
              <span className="chat-source__title">{s.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
