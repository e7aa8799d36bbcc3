// /profile: the signed-in person's own page, opened from the profile menu in the header. Who they
// are (picture, name, whether they are an admin), who changes those (an admin, on the Members
// page), their own PIN (ChangePinForm), and the accounts linked to them: the Plex account row
// (features/media), shown once the household's Plex is connected; their voice (features/voice).
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useUser } from '../../app/session';
import { Avatar } from '../../ui/Avatar';
import { Name } from '../../ui/Name';
import { PageHeader } from '../../ui/PageHeader';
import { MemberLocaleCard } from '../locale';
import { PlexAccountRow } from '../media';
import { VoiceChoicesCard } from '../voice';
import { AdultContentCard } from './AdultContentCard';
import { ChangePinForm } from './ChangePinForm';
import './profile.css';

export function ProfilePage(): ReactElement {
  const user = useUser();
  const admin = user.role === 'admin';
  return (
    <section className="page profile" aria-labelledby="profile-title">
      <PageHeader titleId="profile-title" title="Your profile" description="Who you are in Hearth, and the accounts linked to you." />
      <div className="card profile__who">
        <Avatar id={user.id} name={user.name} avatar={user.avatar} size="lg" />
        <div className="profile__who-text">
          <Name className="profile__name">{user.name}</Name>
          <span className="muted">{admin ? 'Admin' : 'Member'}</span>
        </div>
      </div>
      <p className="muted profile__note">
        {admin ? (
          <>
            Names and pictures are changed on the <Link to="/members">Members</Link> page.
          </>
        ) : (
          'An admin changes your name and picture. Ask one if you want something different.'
        )}
      </p>
      <section className="card profile__pin" aria-labelledby="profile-memory-title">
        <h2 id="profile-memory-title" className="profile__label">
          Memory
        </h2>
        <p className="muted">Short facts the assistant keeps about you for your chats.</p>
        <div className="profile__actions">
          <Link to="/profile/memory">Your memories</Link>
        </div>
      </section>
      <section className="card profile__pin" aria-labelledby="profile-notify-title">
        <h2 id="profile-notify-title" className="profile__label">
          Notifications
        </h2>
        <p className="muted">Where Hearth tells you things: in the app, on your phone or by e-mail.</p>
        <div className="profile__actions">
          <Link to="/profile/notifications">Notification settings</Link>
        </div>
      </section>
      <MemberLocaleCard />
      <ChangePinForm />
      <AdultContentCard />
      <VoiceChoicesCard />
      <PlexAccountRow />
    </section>
  );
}
