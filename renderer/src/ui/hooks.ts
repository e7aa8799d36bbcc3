// Small hooks any page may use: a debounced value, a choice remembered on this device, and whether
// the first paint is behind us.
import { useEffect, useState } from 'react';

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** A string choice kept in localStorage (per device), e.g. list or grid. */
export function useStoredChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return allowed.includes(stored as T) ? (stored as T) : fallback;
    } catch {
      return fallback;
    }
  });
  const set = (next: T) => {
    setValue(next);
    try {
      window.localStorage.setItem(key, next);
    } catch {
      // private mode: the choice lasts for this visit only
    }
  };
  return [value, set];
}

/**
 * False until the page has been painted (with its web font, when one is loading), then true: the
 * Article asks for what is not needed to read the text (AI status, change history, the probe,
 * marking it as reading) only once the text is on screen, so those requests do not hold it back.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let done = false;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fonts = typeof document !== 'undefined' && document.fonts ? document.fonts.ready : Promise.resolve();
    void fonts.then(() => {
      if (done) return;
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => setReady(true), 0);
      });
    });
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return ready;
}
