// One saved item at /reader/:id. Offline articles open in the reader view (the cleaned article,
// sanitized on the server, its pictures served from Hearth); the live page is embedded only when the
// site allows frames (or goes through Hearth's proxy); the archived full page opens sandboxed. Also:
// status (opening an unread offline article makes it "reading" on the server), edit, delete,
// re-archive, summary and questions through the local AI, and the change monitor with its history.
import { type ReactElement } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { usePageTitle } from '../../ui/usePageTitle';
import { useReaderItem } from './queries';
import './reader.css';
import { itemTitle } from './types';

import { BackLink, Article } from './ArticleSections';

export function ArticlePage(): ReactElement {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  // read again every 2 s while its copy is being saved (queries.ts)
  const item = useReaderItem(id);
  const data = item.data?.id === id ? item.data : undefined;
  usePageTitle(data ? itemTitle(data) : 'Reader');

  if (!data) {
    return (
      <section className="page reader-article">
        <BackLink />
        {item.error ? (
          item.error instanceof ApiError && item.error.status === 404 ? (
            <EmptyState title="This item is not in your Reader" action={<Link className="btn btn--secondary" to="/reader">Back to Reader</Link>}>
              It may have been deleted, or it belongs to someone else.
            </EmptyState>
          ) : (
            <ErrorState title="This article did not load" error={item.error} onRetry={() => void item.refetch()} />
          )
        ) : (
          <LoadingState label="Opening…" />
        )}
      </section>
    );
  }
  return (
    <Article
      key={data.id}
      item={data}
      onDeleted={() => {
        navigate('/reader', { replace: true });
        toast(`Deleted “${itemTitle(data)}”.`);
      }}
    />
  );
}
