// The shell's search: a button in the header (a field-like bar on wider screens, an icon on
// phones) and the shortcuts "/" and Ctrl/Cmd+K. The dialog itself (cmdk) is its own chunk, loaded
// the first time search is opened, or when the pointer or focus comes near the button.
import { lazy, Suspense, useCallback, useEffect, useState, type ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import './search.css';

const loadDialog = () => import('./SearchDialog');
const SearchDialog = lazy(() => loadDialog().then((m) => ({ default: m.SearchDialog })));

/** Typing into a field (or an editable area) keeps its "/" for itself. */
function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

export function SearchBox(): ReactElement {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const show = useCallback(() => {
    setLoaded(true);
    setOpen(true);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const k = e.key.toLowerCase();
      if ((k === 'k' && (e.ctrlKey || e.metaKey) && !e.altKey) || (e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target))) {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [show]);

  const warm = () => void loadDialog();

  return (
    <>
      <button type="button" className="search-trigger" onClick={show} onPointerEnter={warm} onFocus={warm} aria-label="Search Hearth" aria-haspopup="dialog" aria-keyshortcuts="/ Control+K Meta+K" data-testid="search-open">
        <Icon name="search" size={20} />
        <span className="search-trigger__label">Search</span>
        <kbd className="search-trigger__key" aria-hidden="true">
          /
        </kbd>
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <SearchDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
