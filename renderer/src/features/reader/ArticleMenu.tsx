// The Article's "More actions" menu on @radix-ui/react-dropdown-menu, in its own chunk: ArticlePage
// shows a plain button of the same name and look until the menu is first wanted, then loads this file
// (with Radix) and opens it at once, so an article's text never waits for menu code.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef, type ReactElement } from 'react';
import { Icon, Spinner } from '../../ui/icons';
import { isBusy, type FullReaderItem } from './types';

export interface ArticleMenuProps {
  item: FullReaderItem;
  busy: boolean;
  /** Opened by Enter or Space on the plain button: the first item gets focus, as Radix does for keys. */
  byKeyboard: boolean;
  onToggleRead: () => void;
  onToggleArchived: () => void;
  onEdit: () => void;
  onRearchive: () => void;
  onDelete: () => void;
}

export function ArticleMenu({ item, busy, byKeyboard, onToggleRead, onToggleArchived, onEdit, onRearchive, onDelete }: ArticleMenuProps): ReactElement {
  const content = useRef<HTMLDivElement>(null);
  // only the first opening comes from the plain button; later ones are Radix's own
  const first = useRef(true);
  return (
    <DropdownMenu.Root defaultOpen>
      <DropdownMenu.Trigger className="btn btn--secondary btn--compact" aria-label="More actions" disabled={busy}>
        {busy ? <Spinner size={20} /> : <Icon name="more" size={20} />}
        More
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={content}
          className="reader-menu"
          align="end"
          sideOffset={6}
          collisionPadding={8}
          // Radix focuses the menu itself as it opens; opened from the keyboard, move on to the first item
          onFocus={(e) => {
            if (!first.current || e.target !== e.currentTarget) return;
            first.current = false;
            if (byKeyboard) content.current?.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')?.focus({ preventScroll: true });
          }}
        >
          <DropdownMenu.Item className="reader-menu__item" onSelect={onToggleRead}>
            <Icon name={item.status === 'unread' ? 'check' : 'bookmark'} size={20} />
            {item.status === 'unread' ? 'Mark read' : 'Mark unread'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="reader-menu__item" onSelect={onToggleArchived}>
            <Icon name="archive" size={20} />
            {item.status === 'archived' ? 'Unarchive' : 'Archive'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="reader-menu__item" onSelect={onEdit}>
            <Icon name="edit" size={20} />
            Edit
          </DropdownMenu.Item>
          {/* a failed copy has its one Retry on the page, with the reason */}
          {item.archiveState === 'failed' ? null : (
            <DropdownMenu.Item className="reader-menu__item" disabled={isBusy(item)} onSelect={onRearchive}>
              <Icon name="refresh" size={20} />
              {item.type === 'offline' || item.autoUpdate ? 'Save a fresh copy' : 'Refresh preview'}
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="reader-menu__sep" />
          <DropdownMenu.Item className="reader-menu__item reader-menu__item--danger" onSelect={onDelete}>
            <Icon name="trash" size={20} />
            Delete
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
