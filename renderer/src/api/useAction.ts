// Runs a page's actions one at a time on a TanStack Query mutation: which one is running (by key,
// from the mutation's isPending), the notice its success returns, and the server's message when it
// fails, with the key of the action that failed (a page can show that message beside the part that
// asked). Once an action has ended, either way, the query keys it `invalidates` are read again
// (every screen showing them updates) and `after` runs.
import { useMutation, type QueryKey } from '@tanstack/react-query';
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

export interface ActionOptions {
  /** Query keys whose answers an action may change. */
  invalidates?: readonly QueryKey[];
  /** Runs after each action, once the keys are invalidated. */
  after?: () => unknown;
}

interface Run {
  key: string;
  run: () => Promise<string | null>;
}

export function useAction(options: ActionOptions | (() => unknown) = {}): ActionState {
  const { invalidates = [], after } = typeof options === 'function' ? { after: options } : options;
  const [notice, setNotice] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: ({ run }: Run) => run(),
    meta: { invalidates }, // read again (here and in the other tabs) by the query client, api/query.ts
    onSuccess: (message) => setNotice(message),
    onSettled: async () => {
      await after?.();
    },
  });
  const act = async (key: string, run: () => Promise<string | null>) => {
    setNotice(null);
    await mutation.mutateAsync({ key, run }).catch(() => undefined); // the failure is in mutation.error
  };
  return {
    busy: mutation.isPending ? mutation.variables.key : null,
    notice,
    setNotice,
    error: mutation.isError ? { key: mutation.variables.key, message: errorMessage(mutation.error) } : null,
    act,
  };
}
