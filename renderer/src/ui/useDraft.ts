// Form text that survives being signed out: a draft is kept in this tab's sessionStorage under the
// signed-in person's id, so when a session ends mid-typing (expired, or signed out in another tab)
// and the same person signs in again, the form they reopen has what they had typed. Another
// person signing in on the same tab sees none of it (the key has the user's id), and it is gone
// when the tab closes or the form is sent (`clear()`).
import { useCallback, useEffect, useState } from 'react';

const PREFIX = 'hearth:draft:';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked: the draft lives only as long as the form
  }
}

export function draftKey(userId: string, form: string): string {
  return `${PREFIX}${userId}:${form}`;
}

/** Drops a draft from outside its form (e.g. the dialog holding the form was dismissed). */
export function clearDraft(userId: string, form: string): void {
  storage()?.removeItem(draftKey(userId, form));
}

/**
 * `useState` for a form's text, kept as a draft for `userId` under `form` (e.g. 'reader.add-link').
 * Returns the value, its setter and `clear()` (call it once the form is sent or dismissed on purpose).
 */
export function useDraft(userId: string, form: string, initial = ''): [string, (next: string) => void, () => void] {
  const key = draftKey(userId, form);
  const [value, setValue] = useState<string>(() => storage()?.getItem(key) ?? initial);
  useEffect(() => {
    const s = storage();
    if (!s) return;
    if (value === initial) s.removeItem(key);
    else s.setItem(key, value);
  }, [key, value, initial]);
  const clear = useCallback(() => {
    storage()?.removeItem(key);
    setValue(initial);
  }, [key, initial]);
  return [value, setValue, clear];
}
