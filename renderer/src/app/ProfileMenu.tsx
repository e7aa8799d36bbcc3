// The header's profile menu: the signed-in person's picture and name open a menu with their profile
// page (name, picture, their own PIN), the Trust page (this device and the secure address) and Help, the user docs Hearth serves at /docs, opened in a new
// tab so the app stays where it was. Sign out stays a button of its own beside it.
import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import type { PublicUser } from '../api/types';
import { Avatar } from '../ui/Avatar';
import { Icon } from '../ui/icons';
import { Name } from '../ui/Name';

export function ProfileMenu({ user }: { user: PublicUser }): ReactElement {
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className="user-chip" data-testid="current-user" title={`${user.name}: profile menu`}>
        <Avatar id={user.id} name={user.name} avatar={user.avatar} size="sm" />
        <Name className="user-chip__name" focusable={false}>
          {user.name}
        </Name>
        <Icon name="down" size={16} className="user-chip__caret" />
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={6} collisionPadding={8} aria-label={`${user.name}: profile menu`}>
          <Menu.Item className="menu__item" asChild>
            <Link to="/profile">
              <Icon name="smile" size={20} />
              <span>Your profile and PIN</span>
            </Link>
          </Menu.Item>
          <Menu.Item className="menu__item" asChild>
            <Link to="/trust">
              <Icon name="lock" size={20} />
              <span>Secure connection on this device</span>
            </Link>
          </Menu.Item>
          <Menu.Item className="menu__item" asChild>
            <a href="/docs/" target="_blank" rel="noopener">
              <Icon name="help" size={20} />
              <span>Help</span>
            </a>
          </Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
