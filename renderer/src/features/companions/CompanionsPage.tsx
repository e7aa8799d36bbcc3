// /companions (issue 32): the companions this member may chat with (granted to them and within their
// Chat level; the server decides), each with its avatar, name, description and greeting, a star to
// keep favorites first, and "Chat with …" which opens a new chat at /chat?companion=<id> (the chat
// sends companionId, so the companion's prompt and model apply). Admins get a link to the editor.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import type { MemberCompanion } from '../../api/types';
import { useUser } from '../../app/session';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useCompanions, useSetFavorite } from './queries';
import './companions.css';

function CompanionCard({ companion }: { companion: MemberCompanion }): ReactElement {
  const favorite = useSetFavorite();
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setError(null);
    try {
      await favorite.mutateAsync({ id: companion.id, favorite: !companion.favorite });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const titleId = `companion-${companion.id}`;
  return (
    <li className="card companion" aria-labelledby={titleId}>
      <div className="companion__head">
        <span className="companion__avatar" aria-hidden="true">
          {companion.avatar}
        </span>
        <h2 id={titleId} className="companion__name">
          {companion.name}
        </h2>
        <button
          type="button"
          className="btn btn--ghost btn--compact companion__star"
          aria-pressed={companion.favorite}
          aria-label={`Favorite ${companion.name}`}
          onClick={() => void toggle()}
          disabled={favorite.isPending}
        >
          <span aria-hidden="true">{companion.favorite ? '★' : '☆'}</span>
        </button>
      </div>
      <p className="companion__description">{companion.description}</p>
      <p className="muted companion__greeting">“{companion.greeting}”</p>
      <FormError message={error} />
      <div className="companion__actions">
        <Link className="btn btn--primary" to={`/chat?companion=${encodeURIComponent(companion.id)}`}>
          Chat with {companion.name}
        </Link>
      </div>
    </li>
  );
}

export function CompanionsPage(): ReactElement {
  const user = useUser();
  const companions = useCompanions();
  let body: ReactElement;
  if (companions.isPending) body = <LoadingState label="Loading companions…" />;
  else if (companions.isError) body = <ErrorState error={companions.error} title="Companions did not load" onRetry={() => void companions.refetch()} />;
  else if (companions.data.length === 0)
    body = (
      <EmptyState icon="smile" title="No companions for you yet">
        {user.role === 'admin' ? 'Create one, or grant one to yourself, in the companion editor.' : 'An admin chooses which companions each member may use.'}
      </EmptyState>
    );
  else {
    const sorted = [...companions.data].sort((a, b) => Number(b.favorite) - Number(a.favorite));
    body = (
      <ul className="companions__list" aria-label="Your companions">
        {sorted.map((c) => (
          <CompanionCard key={c.id} companion={c} />
        ))}
      </ul>
    );
  }
  return (
    <section className="page companions" aria-labelledby="companions-title">
      <PageHeader
        titleId="companions-title"
        title="Companions"
        description="Helpers with their own way of answering. Star the ones you use most."
        actions={
          user.role === 'admin' ? (
            <Link className="btn btn--secondary" to="/companions/manage">
              Edit companions
            </Link>
          ) : undefined
        }
      />
      {body}
    </section>
  );
}
