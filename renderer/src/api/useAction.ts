// Runs a page's actions one at a time: which one is busy (by key), the notice its success returns,
// and the server's message when it fails, with the key of the action that failed (a page can show
// that message beside the part that asked). `after` runs once each action has ended, either way.
import { useState } from 'react';
import { errorMessage } from './client';

export interface ActionState {
  /** The key of the action running now, or null. */
  busy: string | null;
  notice: string | null;
  setNotice: (notice: string | null) => void;
  error: { key: string; message: string } | null;
  /** Runs `run` under `key`; what it returns becomes the notice, what it throws the error. */
  act: (key: string, run: () => Promise<string | null>) => Promise<void>;
}

export function useAction(after?: () => unknown): ActionState {
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const act = async (key: string, run: () => Promise<string | null>) => {
    setBusy(key);
    setNotice(null);
    setError(null);
    try {
      setNotice(await run());
    } catch (err) {
      setError({ key, message: errorMessage(err) });
    } finally {
      setBusy(null);
      await after?.();
    }
  };
  return { busy, notice, setNotice, error, act };
}
