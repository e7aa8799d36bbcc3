// Admin: the one navigation entry for looking after the household. Lists the admin pages (and
// Downloads and the App Store), each with one line on what it is for; pages of a tool that is off
// are left out, as in the navigation.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { adminPagesFor, pageHref, useShellPages } from '../../app/shell-pages';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { useTools } from '../apps';

export function AdminPage(): ReactElement {
  const user = useUser();
  const { isVisible } = useTools();
  const pages = adminPagesFor(useShellPages(), user.role, isVisible);
  return (
    <section className="page" aria-labelledby="admin-title">
      <PageHeader titleId="admin-title" title="Admin" description="Looking after the household: its members, what Hearth runs, and what it downloads." />
      <ul className="admin-list" aria-label="Admin pages">
        {pages.map((p) => (
          <li key={p.id}>
            <Link to={pageHref(p)} className="admin-list__link">
              <Icon name={p.icon} />
              <span className="admin-list__text">
                <span className="admin-list__title">{p.label}</span>
                {p.summary ? <span className="admin-list__summary">{p.summary}</span> : null}
              </span>
              <Icon name="forward" size={20} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
