// Ask the manual: a question about one device, answered from its details, its specifications and
// the parts of its manual that match (POST /devices/:id/ask, an event stream). The answer grows as
// it arrives, shown as Markdown the safe way Chat shows it, with Stop; afterwards it says whether
// the manual covered it. When the AI is not running it says so, and why, instead of a box that
// cannot answer.
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { openPostStream, type PostStreamHandle } from '../../api/sse';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { Markdown } from '../chat';
import { useAiReadiness } from './queries';
import { deviceApi, type AskEvents, type Device } from './types';

type Events = AskEvents & { error: { code: string; message: string } };

interface Answer {
  question: string;
  text: string;
  state: 'streaming' | 'complete' | 'stopped' | 'error';
  error: string | null;
  covered: boolean | null;
  paragraphs: number;
}

const MAX_QUESTION = 1_000;

export function AskManual({ device }: { device: Device }): ReactElement {
  const readiness = useAiReadiness();
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const handle = useRef<PostStreamHandle | null>(null);
  const hasManual = device.manualTextChars > 0;

  // leaving the page ends the answer
  useEffect(() => () => handle.current?.close(), []);

  const ask = async (e: FormEvent) => {
    e.preventDefault();
    const q = question.trim();
    if (!q || handle.current) return;
    setRefusal(null);
    const edit = (change: (a: Answer) => Answer) => setAnswer((a) => (a ? change(a) : a));
    setAnswer({ question: q, text: '', state: 'streaming', error: null, covered: null, paragraphs: 0 });
    const stream = openPostStream<Events>(
      `${deviceApi(device.id)}/ask`,
      { question: q },
      {
        token: (t) => edit((a) => ({ ...a, text: a.text + (t?.text ?? '') })),
        sources: (s) => edit((a) => ({ ...a, covered: s?.manualCovered ?? null, paragraphs: s?.manualParagraphs ?? 0 })),
        done: (d) => edit((a) => ({ ...a, state: d?.status === 'stopped' ? 'stopped' : 'complete' })),
        error: (err) => edit((a) => ({ ...a, state: 'error', error: err?.message ?? 'The answer stopped. Try again.' })),
      },
      { closeOn: ['done', 'error'] },
    );
    handle.current = stream;
    try {
      await stream.done;
      setQuestion('');
    } catch (err) {
      if (err instanceof ApiError && err.code !== 'stream_lost') {
        // refused before anything was written: the question stays in the box
        setAnswer(null);
        setRefusal(errorMessage(err));
      } else edit((a) => ({ ...a, state: 'error', error: errorMessage(err) }));
    } finally {
      handle.current = null;
      edit((a) => (a.state === 'streaming' ? { ...a, state: 'stopped' } : a));
    }
  };

  const stop = () => {
    handle.current?.close();
    handle.current = null;
    setAnswer((a) => (a && a.state === 'streaming' ? { ...a, state: 'stopped' } : a));
  };

  const unavailable = readiness.data && !readiness.data.available ? readiness.data : null;
  const streaming = answer?.state === 'streaming';

  return (
    <section className="inv-section" aria-labelledby="ask-title" data-testid="ask-manual">
      <h2 id="ask-title" className="inv-section__title">
        Ask the manual
      </h2>
      {unavailable ? (
        <p className="banner banner--info" data-testid="ask-unavailable">
          <Icon name="warn" size={22} />
          <span>
            {hasManual ? 'Questions cannot be answered right now. ' : 'There is no manual text for this device and the AI helper is not available, so questions cannot be answered yet. '}
            {unavailable.unavailableReason ?? ''} {unavailable.fix ?? ''}
          </span>
        </p>
      ) : (
        <>
          <p className="muted">
            {hasManual
              ? 'Ask anything the manual might answer, like how to clean the filter or what an error code means.'
              : 'Hearth has no manual text for this device yet, so answers come only from its details and specifications.'}
          </p>
          <form className="inv-ask" onSubmit={(e) => void ask(e)}>
            <label htmlFor="ask-question" className="visually-hidden">
              Your question about {device.name}
            </label>
            <textarea
              id="ask-question"
              className="input"
              rows={2}
              maxLength={MAX_QUESTION}
              placeholder="For example: How do I descale it?"
              value={question}
              onChange={(e) => setQuestion(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  e.currentTarget.form?.requestSubmit();
                }
              }}
              disabled={readiness.isPending}
            />
            <div className="actions">
              {streaming ? (
                <button type="button" className="btn btn--secondary" onClick={stop}>
                  <Icon name="pause" size={20} />
                  Stop
                </button>
              ) : (
                <button type="submit" className="btn btn--primary" disabled={!question.trim() || readiness.isPending}>
                  <Icon name="chat" size={20} />
                  Ask
                </button>
              )}
            </div>
          </form>
          <FormError message={refusal} />
        </>
      )}
      {answer ? (
        <div className="inv-answer" data-testid="ask-answer" data-state={answer.state} aria-live="polite" aria-busy={streaming}>
          <p className="inv-answer__q">
            <strong>You asked:</strong> {answer.question}
          </p>
          {answer.text ? <Markdown text={answer.text} /> : streaming ? (
            <p className="muted">
              <Spinner size={16} /> Reading the manual…
            </p>
          ) : null}
          {answer.state === 'stopped' ? <p className="muted">Stopped. What was written so far is above.</p> : null}
          {answer.state === 'error' ? <p className="form-error">{answer.error}</p> : null}
          {answer.state === 'complete' && answer.covered === false ? (
            <p className="banner banner--info" data-testid="ask-not-covered">
              <Icon name="warn" size={22} />
              <span>{hasManual ? 'The manual does not seem to cover this, so check the answer with the maker before relying on it.' : 'There is no manual to check this against yet.'}</span>
            </p>
          ) : null}
          {answer.state === 'complete' && answer.covered ? <p className="muted" data-testid="ask-covered">From {answer.paragraphs === 1 ? 'one part' : `${answer.paragraphs} parts`} of the manual.</p> : null}
        </div>
      ) : null}
    </section>
  );
}
