// OverflowMenu — a labelled "More actions" button opening a menu of further actions, on
// @radix-ui/react-dropdown-menu (arrow keys, typeahead, Escape, focus back to the button).
//   <OverflowMenu label="More actions for Bread basics" items={[
//     { id: 'rename', label: 'Rename', icon: 'edit', onSelect: rename },
//     { id: 'open', label: 'Open original', icon: 'external', href: url },
//     { id: 'delete', label: 'Delete', icon: 'trash', tone: 'danger', onSelect: askDelete },
//   ]} />
// `label` is the button's accessible name (visible too when `showLabel`); an item with `href` is a
// link (opened in a new tab when external), one with `disabled` stays listed but cannot be chosen.
import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactElement } from 'react';
import { Icon, type IconName } from './icons';

export interface OverflowItem {
  id: string;
  label: string;
  icon?: IconName;
  onSelect?: () => void;
  href?: string;
  external?: boolean;
  tone?: 'danger';
  disabled?: boolean;
}

export interface OverflowMenuProps {
  items: readonly OverflowItem[];
  /** The button's name; "More actions" unless a fuller one helps ("More actions for Bread basics"). */
  label?: string;
  showLabel?: boolean;
  testId?: string;
}

export function OverflowMenu({ items, label = 'More actions', showLabel = false, testId }: OverflowMenuProps): ReactElement {
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger className={showLabel ? 'btn btn--secondary btn--compact' : 'btn btn--icon btn--ghost'} aria-label={showLabel ? undefined : label} data-testid={testId}>
        <Icon name="more" />
        {showLabel ? <span>{label}</span> : null}
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={6} collisionPadding={8}>
          {items.map((item) => (
            <Menu.Item
              key={item.id}
              className={item.tone === 'danger' ? 'menu__item menu__item--danger' : 'menu__item'}
              disabled={item.disabled}
              onSelect={item.onSelect}
              asChild={item.href !== undefined}
            >
              {item.href !== undefined ? (
                <a href={item.href} target={item.external ? '_blank' : undefined} rel={item.external ? 'noreferrer' : undefined}>
                  {item.icon ? <Icon name={item.icon} size={20} /> : null}
                  <span>{item.label}</span>
                </a>
              ) : (
                <>
                  {item.icon ? <Icon name={item.icon} size={20} /> : null}
                  <span>{item.label}</span>
                </>
              )}
            </Menu.Item>
          ))}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
