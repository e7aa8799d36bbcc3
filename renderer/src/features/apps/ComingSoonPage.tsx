// Pages around tools that are not (or not yet) usable: an App whose feature arrives in a later
// Hearth update (the tool exists so it can be installed, requested and placed on Home, and its page
// says plainly that it is not here yet), and the page of an app that is switched off.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { EmptyState } from '../../ui/StateViews';
import { APP_STORE_HREF } from './store-entries';
import { useTools } from './tools';

export function ComingSoonPage({ toolId, name }: { toolId: string; name: string }): ReactElement {
  const tool = useTools().tools?.find((t) => t.id === toolId);
  return (
    <section className="page" aria-labelledby="soon-title">
      <h1 id="soon-title" className="page__title">
        {tool?.name ?? name}
      </h1>
      <EmptyState
        title={`${tool?.name ?? name} is coming in a later update`}
        action={
          <Link to={APP_STORE_HREF} className="btn btn--secondary">
            Back to the App Store
          </Link>
        }
      >
        It is switched on for your household, but this version of Hearth does not have its page yet. Once Hearth is updated it opens here.
      </EmptyState>
    </section>
  );
}

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
