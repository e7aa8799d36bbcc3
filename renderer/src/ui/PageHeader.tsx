// PageHeader — the top of a page: its title (the page's one h1), an optional line saying what the
// page is for, and optional actions (buttons or links) that wrap under the title on phones.
//   <PageHeader title="Household members" description="Everyone here has a profile…" actions={<button…/>} />
// `titleId` lets the page's <section aria-labelledby> point at the title.
import type { ReactElement, ReactNode } from 'react';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  titleId?: string;
}

export function PageHeader({ title, description, actions, titleId }: PageHeaderProps): ReactElement {
  return (
    <div className="page__head">
      <div className="page__intro">
        <h1 id={titleId} className="page__title">
          {title}
        </h1>
        {description ? <p className="muted page__description">{description}</p> : null}
      </div>
      {actions ? <div className="page__actions">{actions}</div> : null}
    </div>
  );
}
