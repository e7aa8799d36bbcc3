import { useEffect } from 'react';

/** Sets the tab / window title to "<title> · Hearth". */
export function usePageTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · Hearth` : 'Hearth';
  }, [title]);
}
