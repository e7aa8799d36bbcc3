// Keeps a list page's (debounced) search in the address as `?q=`, so Back from an opened item comes
// back to the same search. Written only when the search changes, replacing the history entry.
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

export function useSearchInAddress(q: string): void {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if ((params.get('q') ?? '') === q) return;
    const next = new URLSearchParams(params);
    if (q) next.set('q', q);
    else next.delete('q');
    setParams(next, { replace: true });
  }, [q]); // only when the debounced search changes
}
