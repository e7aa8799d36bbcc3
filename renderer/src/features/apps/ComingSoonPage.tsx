// The page of an app that is switched off. (No page here promises a later update: a tool ships
// with its page or not at all.)
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { EmptyState } from '../../ui/StateViews';
import { APP_STORE_HREF } from './store-entries';
import { useTools } from './tools';

/** Shown instead of a tool's page while the tool is switched off. */
export function ToolOffPage({ toolId }: { toolId: string }): ReactElement {
  const user = useUser();
  const name = useTools().tools?.find((t) => t.id === toolId)?.name ?? 'This app';
  return (
    <section className="page" aria-labelledby="off-title">
      <h1 id="off-title" className="page__title">
        {name}
      </h1>
      <EmptyState
        title={`${name} is not installed`}
        action={
          <Link to={APP_STORE_HREF} className="btn btn--secondary">
            Go to the App Store
          </Link>
        }
      >
        {user.role === 'admin' ? 'Get it in the App Store to switch it on for everyone.' : 'You can ask an admin for it in the App Store.'}
      </EmptyState>
    </section>
  );
}
