// What a member sees on an admin page (a typed address, an old link): which page it is, that the
// household's admins look after it, and who they are, instead of being sent Home without a word.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useProfiles } from '../members';
import { PageHeader } from '../../ui/PageHeader';

export function AdminOnlyPage({ label }: { label: string }): ReactElement {
  const profiles = useProfiles();
  const admins = (profiles.data ?? []).filter((p) => p.role === 'admin').map((p) => p.name);
  return (
    <section className="page" aria-labelledby="admin-only-title" data-testid="admin-only">
      <PageHeader titleId="admin-only-title" title="This page is for the household’s admins" />
      <p>
        {label} is looked after by the household’s admins, so it does not open on your profile. If you would like something changed there, ask{' '}
        {admins.length === 1 ? `${admins[0]}, the household’s admin` : admins.length > 1 ? `one of them: ${joinNames(admins)}` : 'an admin'}.
      </p>
      <p>
        <Link className="btn btn--secondary" to="/">
          Go home
        </Link>
      </p>
    </section>
  );
}

/** "Alex", "Alex or Sam", "Alex, Jo or Sam". */
function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
