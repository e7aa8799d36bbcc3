// "Who's using Hearth?": one big tile per household member; choosing one opens the PIN pad.
import type { ReactElement } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { PublicUser } from '../../api/types';
import { useProfiles } from '../members';
import { useSession } from '../../app/session';
import { Avatar } from '../../ui/Avatar';
import { Name } from '../../ui/Name';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';

export interface PickerState {
  from?: string;
  profile?: PublicUser;
}

export function ProfilePicker(): ReactElement {
  usePageTitle('Choose your profile');
  const { signedOutReason } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as PickerState | null)?.from;
  const profiles = useProfiles();

  return (
    <div className="picker">
      <header className="picker__brand">
        <Icon name="flame" size={36} className="brand__mark" />
        <span className="brand__name">Hearth</span>
      </header>
      <h1 className="picker__title">Who&rsquo;s using Hearth?</h1>
      {signedOutReason ? (
        <p className="banner banner--info" role="status">
          {signedOutReason === 'elsewhere'
            ? 'You signed out in another tab or window. Choose your profile to sign in again.'
            : 'You were signed out. Choose your profile to sign in again.'}
        </p>
      ) : null}
      {profiles.isPending ? (
        <LoadingState label="Loading profiles…" />
      ) : profiles.isError ? (
        <ErrorState title="Profiles did not load" error={profiles.error} onRetry={() => void profiles.refetch()} />
      ) : profiles.data && profiles.data.length === 0 ? (
        <EmptyState title="No profiles yet">Hearth has no household members yet. Reload once setup is done on the home computer.</EmptyState>
      ) : (
        <ul className="profile-grid" aria-label="Profiles">
          {profiles.data?.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="profile-tile"
                onClick={() => navigate(`/profiles/${encodeURIComponent(p.id)}`, { state: { from, profile: p } satisfies PickerState })}
              >
                <Avatar id={p.id} name={p.name} avatar={p.avatar} size="lg" />
                <Name className="profile-tile__name" focusable={false}>
                  {p.name}
                </Name>
                {p.role === 'admin' ? <span className="badge badge--admin">Admin</span> : null}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
