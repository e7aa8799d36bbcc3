// The search dialog: one field, results as you type grouped by kind (Reader, Offline archives,
// Chats, Apps, Pages), arrows to move, Enter to open, Esc to close. cmdk gives the listbox and its
// keyboard; the server does the matching (shouldFilter off). Groups that could not answer this time
// are named in one quiet line under the results.
import * as RadixDialog from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import { useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon, Spinner, type IconName } from '../../ui/icons';
import { useReturnFocus } from '../../ui/useReturnFocus';
import { TYPE_LABELS, useSearch, type SearchResult, type SearchType } from './queries';

const TYPE_ICONS: Record<SearchType, IconName> = {
  reader: 'bookmark',
  archive: 'book',
  device: 'apps',
  conversation: 'sparkles',
  tool: 'apps',
  page: 'forward',
  memo: 'play',
};

export function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }): ReactElement {
  const returnFocus = useReturnFocus();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const search = useSearch(typed);
  const data = search.data;
  const results = data?.groups.reduce((n, g) => n + g.results.length, 0) ?? 0;

  const openResult = (r: SearchResult) => {
    onClose();
    setTyped('');
    void navigate(r.url);
  };

  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content className="dialog search-dialog" aria-describedby={undefined} data-testid="search-dialog" {...returnFocus}>
          <RadixDialog.Title className="visually-hidden">Search Hearth</RadixDialog.Title>
          <Command shouldFilter={false} label="Search Hearth" className="search" loop>
            <div className="search__bar">
              <Icon name="search" size={20} className="search__icon" />
              <Command.Input value={typed} onValueChange={setTyped} placeholder="Search saved links, archives, apps, pages…" className="search__input" aria-label="Search Hearth" enterKeyHint="go" />
              {search.pending && typed.trim() ? <Spinner size={18} label="Searching" /> : null}
              <RadixDialog.Close className="btn btn--icon btn--ghost search__close" aria-label="Close search">
                <Icon name="close" />
              </RadixDialog.Close>
            </div>
            <Command.List className="search__list" label="Results">
              {!typed.trim() ? (
                <p className="search__hint">Type to search your Reader, the offline archives, apps and pages.</p>
              ) : search.error && !data ? (
                <div className="search__state" role="alert">
                  <p>Search did not work. {errorMessage(search.error)}</p>
                  <button type="button" className="btn btn--secondary btn--compact" onClick={search.retry}>
                    <Icon name="refresh" size={18} />
                    Try again
                  </button>
                </div>
              ) : !data ? (
                <p className="search__state" role="status">
                  Searching…
                </p>
              ) : (
                <>
                  {data.groups.map((g) => (
                    <Command.Group key={g.type} heading={g.label} className="search__group">
                      {g.results.map((r) => (
                        <Command.Item key={`${r.type}:${r.id}`} value={`${r.type}:${r.id}`} onSelect={() => openResult(r)} className="search__item">
                          <Icon name={TYPE_ICONS[r.type]} size={20} className="search__item-icon" />
                          <span className="search__item-text">
                            <span className="search__item-title">{r.title}</span>
                            {r.snippet ? <span className="search__item-snippet">{r.snippet}</span> : null}
                          </span>
                        </Command.Item>
                      ))}
                    </Command.Group>
                  ))}
                  {results === 0 && !search.pending ? (
                    <p className="search__state" role="status">
                      Nothing found for “{data.q}”.
                    </p>
                  ) : null}
                  {data.unavailable.length > 0 ? (
                    <p className="search__note" data-testid="search-unavailable">
                      Not searched this time: {data.unavailable.map((u) => `${TYPE_LABELS[u.type]} (${u.reason.replace(/\.$/, '')})`).join(', ')}.
                    </p>
                  ) : null}
                </>
              )}
            </Command.List>
          </Command>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
