// How many rows of a long list to draw now. The first screen's commit is one task the browser cannot
// interrupt, and on a phone's processor sixty Reader cards in it were a long one, though only the
// first few are on screen. So a long list is drawn `step` rows at first and `step` more each time
// the browser is idle (a transition, so typing and taps go first), until every row is there: a
// moment after the first paint, with nothing else changing. A new `resetKey` (other filters, another
// search) starts again from the first `step`.
import { startTransition, useEffect, useState } from 'react';

export function useDrawnInSteps(total: number, step: number, resetKey: string): number {
  const [drawn, setDrawn] = useState({ key: resetKey, count: step });
  // a new list starts from its first rows (set during render, so the long list is never committed)
  const current = drawn.key === resetKey ? drawn : { key: resetKey, count: step };
  if (current !== drawn) setDrawn(current);
  const more = current.count < total;

  useEffect(() => {
    if (!more) return;
    const next = () => startTransition(() => setDrawn((d) => (d.key === resetKey ? { key: resetKey, count: d.count + step } : d)));
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(next, { timeout: 500 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(next, 50);
    return () => window.clearTimeout(id);
  }, [more, current.count, resetKey, step]);

  return Math.min(total, current.count);
}
