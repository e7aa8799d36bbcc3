// /profile/memory (issue 32): the short facts the assistant keeps about the signed-in member
// (GET /api/chat/memory, private to them; not even an admin can read another member's). While the
// household has memory off the page says so, and an admin gets the switch (PUT /api/admin/memory);
// while on, the member's memories are listed, newest first as the server gives them, with a field to
// add one by hand and a delete per memory.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import type { Memory } from '../../api/types';
import { useUser } from '../../app/session';
import { Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useAddMemory, useDeleteMemory, useMemories, useSetMemoryEnabled } from './queries';
import './profile.css';

const MAX_CHARS = 300;

function MemorySwitch({ enabled }: { enabled: boolean }): ReactElement {
  const setEnabled = useSetMemoryEnabled();
  const [error, setError] = useState<string | null>(null);
  const flip = async () => {
    setError(null);
    try {
      await setEnabled.mutateAsync(!enabled);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <div className="profile__actions memory__switch">
      <button type="button" className={enabled ? 'btn' : 'btn btn--primary'} onClick={() => void flip()} disabled={setEnabled.isPending}>
        {setEnabled.isPending ? <Spinner size={20} /> : null}
        {enabled ? 'Turn memory off for the household' : 'Turn memory on for the household'}
      </button>
      <FormError message={error} />
    </div>
  );
}

function AddMemoryForm(): ReactElement {
  const add = useAddMemory();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setError('Write what to remember.');
      return;
    }
    try {
      await add.mutateAsync(text.trim());
      setText('');
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldIssues.text ?? err.message) : errorMessage(err));
    }
  };
  return (
    <form className="memory__add" onSubmit={(e) => void submit(e)} noValidate>
      <TextField label="Something to remember" hint="For example: Sam is allergic to peanuts." maxLength={MAX_CHARS} value={text} onChange={(e) => setText(e.target.value)} error={error} />
      <div className="profile__actions">
        <button type="submit" className="btn btn--primary" disabled={add.isPending}>
          {add.isPending ? <Spinner size={20} /> : null}
          Remember this
        </button>
      </div>
    </form>
  );
}

function MemoryRow({ memory }: { memory: Memory }): ReactElement {
  const remove = useDeleteMemory();
  const [error, setError] = useState<string | null>(null);
  const del = async () => {
    setError(null);
    try {
      await remove.mutateAsync(memory.id);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <li className="memory__item">
      <span className="memory__text">{memory.text}</span>
      <button type="button" className="btn btn--danger-ghost btn--compact" onClick={() => void del()} disabled={remove.isPending} aria-label={`Forget “${memory.text}”`}>
        {remove.isPending ? <Spinner size={16} /> : null}
        Forget
      </button>
      {error ? <FormError message={error} /> : null}
    </li>
  );
}

export function MemoryPage(): ReactElement {
  const user = useUser();
  const admin = user.role === 'admin';
  const memories = useMemories();

  let body: ReactElement;
  if (memories.isPending) body = <LoadingState label="Loading your memories…" />;
  else if (memories.isError) body = <ErrorState error={memories.error} title="Your memories did not load" onRetry={() => void memories.refetch()} />;
  else if (!memories.data.enabled) {
    body = (
      <div className="card memory__off">
        <p>Memory is off for this household, so the assistant does not keep anything about you between chats.</p>
        {admin ? <MemorySwitch enabled={false} /> : <p className="muted">An admin can turn it on.</p>}
      </div>
    );
  } else {
    const list = memories.data.memories;
    body = (
      <>
        <div className="card memory__card">
          <AddMemoryForm />
        </div>
        {list.length === 0 ? (
          <EmptyState icon="chat" title="Nothing remembered yet">
            Ask the assistant to remember something in a chat, or add it here.
          </EmptyState>
        ) : (
          <ul className="memory__list" aria-label="Your memories">
            {list.map((m) => (
              <MemoryRow key={m.id} memory={m} />
            ))}
          </ul>
        )}
        {admin ? <MemorySwitch enabled /> : null}
      </>
    );
  }

  return (
    <section className="page profile memory" aria-labelledby="memory-title">
      <PageHeader
        titleId="memory-title"
        title="Memory"
        description="Short facts the assistant keeps about you and uses in your chats. Only you can see them."
      />
      <p className="muted profile__note">
        <Link to="/profile">Back to your profile</Link>
      </p>
      {body}
    </section>
  );
}
