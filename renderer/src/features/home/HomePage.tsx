// The home page. For now a friendly welcome; the household's home canvas replaces the card later.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';

function greeting(hour: number): string {
  if (hour < 5) return 'Good night';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export function HomePage(): ReactElement {
  const user = useUser();
  return (
    <section className="page home" aria-labelledby="home-title">
      <h1 id="home-title" className="page__title">
        {greeting(new Date().getHours())}, <span data-testid="home-name">{user.name}</span>
      </h1>
      <div className="card home__card">
        <Icon name="flame" size={40} className="brand__mark" />
        <div>
          <p className="home__lead">Welcome home.</p>
          <p className="muted">This is where your household&rsquo;s apps, library and shortcuts will live. More is on its way.</p>
          {user.role === 'admin' ? (
            <p>
              <Link to="/members" className="btn btn--secondary">
                <Icon name="members" size={20} />
                Manage household members
              </Link>
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
