// The article page's side panels: Ask and Summarize (AiPanel) and the change monitor (MonitorPanel).
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { FormError, LoadingState } from '../../ui/StateViews';
import { useDraft } from '../../ui/useDraft';
import { useAfterFirstPaint } from '../../ui/hooks';
import { useAiStatus, useAsk, useItemChanges, useSummarize } from './queries';
import { INTERVALS, type FullReaderItem, type PatchItemBody } from './types';
import { fmt } from '../../ui/locale';

const AI_DOWN = 'The local AI model isn’t running, so Hearth can’t do this right now. An admin can start it from Features.';

export const aiMessage = (err: unknown) => (err instanceof ApiError && err.status === 503 ? AI_DOWN : errorMessage(err));

export function AiPanel({ item }: { item: FullReaderItem }): ReactElement {
  const summarize = useSummarize(item.id);
  const askQuestion = useAsk(item.id);
  // the question survives the session ending mid-way (kept for this person, this article, this tab)
  const { id: userId } = useUser();
  const [question, setQuestion, clearQuestion] = useDraft(userId, `reader.ask.${item.id}`);
  const [askError, setAskError] = useState<string | null>(null);
  const questionId = useId();
  const summary = summarize.data ?? null;
  const summaryError = summarize.error ? aiMessage(summarize.error) : null;
  const answer = askQuestion.data ?? null;
  // offered only where it can work: a chat model chosen, the runtime up and the model there
  const ai = useAiStatus(useAfterFirstPaint());

  const ask = (e: FormEvent) => {
    e.preventDefault();
    const q = question.trim();
    if (!q) {
      setAskError('Type a question about the article first.');
      return;
    }
    setAskError(null);
    askQuestion.mutate(q, { onSuccess: clearQuestion, onError: (err) => setAskError(aiMessage(err)) });
  };

  return (
    <section className="card reader-panel" aria-labelledby="ai-title">
      <h2 id="ai-title" className="feature-group__title">
        Ask Hearth about it
      </h2>
      {!ai.data ? (
        ai.error ? (
          <p className="muted">Hearth could not check whether its local AI is ready. <button type="button" className="link-btn" onClick={() => void ai.refetch()}>Check again</button></p>
        ) : (
          <LoadingState label="Checking the local AI…" />
        )
      ) : !ai.data.available ? (
        <p className="muted" data-testid="ai-unavailable">
          {ai.data.unavailableReason} {ai.data.fix}{' '}
          <button type="button" className="link-btn" onClick={() => void ai.refetch()}>
            Check again
          </button>
        </p>
      ) : (
        <>
      <p className="muted">Uses the AI model on this computer; the article never leaves the house.</p>
      <button type="button" className="btn btn--secondary btn--compact" onClick={() => summarize.mutate()} disabled={summarize.isPending}>
        {summarize.isPending ? <Spinner size={20} /> : <Icon name="sparkles" size={20} />}
        {summarize.isPending ? 'Summarizing…' : 'Summarize'}
      </button>
      {summaryError ? (
        <p className="banner banner--warn reader-panel__msg" role="alert">
          <Icon name="warn" size={20} />
          <span>{summaryError}</span>
        </p>
      ) : null}
      {summary ? (
        <div className="reader-summary" data-testid="summary">
          <p>
            <strong>TL;DR:</strong> {summary.summary}
          </p>
          {summary.tags.length ? (
            <p className="muted">
              Suggested tags: {summary.tags.map((t) => `#${t}`).join(' ')}
              {item.canEdit ? ' (added to this item)' : ''}
            </p>
          ) : null}
        </div>
      ) : null}
      <form className="reader-ask" onSubmit={ask} noValidate>
        <label htmlFor={questionId} className="field__label">
          Ask a question about the article
        </label>
        <div className="reader-ask__row">
          <input id={questionId} className="input" value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="e.g. What temperature does it say?" maxLength={500} />
          <button type="submit" className="btn btn--primary btn--compact" disabled={askQuestion.isPending}>
            {askQuestion.isPending ? <Spinner size={20} /> : <Icon name="forward" size={20} />}
            Ask
          </button>
        </div>
      </form>
      {askError ? (
        <p className="banner banner--warn reader-panel__msg" role="alert">
          <Icon name="warn" size={20} />
          <span>{askError}</span>
        </p>
      ) : null}
      {answer ? (
        <div className="reader-summary" data-testid="answer" aria-live="polite">
          <p className="muted">{answer.q}</p>
          <p>{answer.a}</p>
        </div>
      ) : null}
        </>
      )}
    </section>
  );
}

export function MonitorPanel({
  item,
  busy,
  error,
  onPatch,
}: {
  item: FullReaderItem;
  busy: string | null;
  /** Why the last change here was refused, shown in the panel (on a phone the page's top is out of sight). */
  error: string | null;
  onPatch: (key: string, body: PatchItemBody, message: string | null) => void;
}): ReactElement {
  const intervalId = useId();
  const changes = useItemChanges(item.id, item.lastCheckedAt, useAfterFirstPaint());
  const interval = item.autoUpdateIntervalMins ?? 1440;
  return (
    <section className="card reader-panel" aria-labelledby="monitor-title" data-testid="monitor">
      <h2 id="monitor-title" className="feature-group__title">
        Watch for changes
      </h2>
      <p className="muted">Hearth re-reads the page on a schedule and keeps a history of when its text changed.</p>
      <label className="switch">
        <input
          className="switch__input"
          type="checkbox"
          checked={item.autoUpdate}
          disabled={busy !== null}
          onChange={(e) => onPatch('monitor', { autoUpdate: e.target.checked }, e.target.checked ? 'Hearth will check this page for changes.' : 'Stopped checking this page.')}
        />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__text">Check this page for changes</span>
      </label>
      <FormError message={error} />
      {item.autoUpdate ? (
        <>
          <div className="field reader-panel__field">
            <label className="field__label" htmlFor={intervalId}>
              How often
            </label>
            <select
              id={intervalId}
              className="input"
              value={INTERVALS.some((i) => i.mins === interval) ? interval : ''}
              disabled={busy !== null}
              onChange={(e) => onPatch('monitor', { autoUpdateIntervalMins: Number(e.target.value) }, 'Saved how often to check.')}
            >
              {INTERVALS.some((i) => i.mins === interval) ? null : <option value="">Every {interval} minutes</option>}
              {INTERVALS.map((i) => (
                <option key={i.mins} value={i.mins}>
                  {i.label}
                </option>
              ))}
            </select>
          </div>
          <label className="switch">
            <input
              className="switch__input"
              type="checkbox"
              checked={item.alertOnChange}
              disabled={busy !== null}
              onChange={(e) => onPatch('monitor', { alertOnChange: e.target.checked }, e.target.checked ? 'You will get a notification when it changes.' : 'No notifications for changes.')}
            />
            <span className="switch__track" aria-hidden="true" />
            <span className="switch__text">Notify me when it changes</span>
          </label>
        </>
      ) : null}
      <p className="muted reader-panel__facts">
        {item.lastCheckedAt ? `Last checked ${fmt().dateTime(item.lastCheckedAt)}.` : 'Not checked yet.'}
        {item.contentChangedAt ? ` Last changed ${fmt().dateTime(item.contentChangedAt)}.` : ''}
      </p>
      <h3 className="reader-manage__title">Change history</h3>
      {!changes.data ? (
        changes.error ? (
          <p className="job__error">
            The history did not load: {errorMessage(changes.error)}{' '}
            <button type="button" className="link-btn" onClick={() => void changes.refetch()}>
              Try again
            </button>
          </p>
        ) : (
          <LoadingState label="Loading the history…" />
        )
      ) : changes.data.length === 0 ? (
        <p className="muted">No checks yet.</p>
      ) : (
        <ol className="reader-changes" data-testid="changes">
          {changes.data.map((c) => (
            <li key={c.id} className="reader-changes__row">
              <span className={`badge ${c.changed ? 'badge--warn' : ''}`}>{c.changed ? 'Changed' : 'No change'}</span>
              <span>{fmt().dateTime(c.checkedAt)}</span>
              {c.changed && c.wordCount !== null && c.previousWordCount !== null ? (
                <span className="muted">
                  {c.previousWordCount} → {c.wordCount} words
                </span>
              ) : null}
              {c.excerpt ? <span className="reader-changes__excerpt muted">{c.excerpt}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
