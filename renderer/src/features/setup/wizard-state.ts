// What the wizard saves with PUT /api/setup/state besides the step: the extras picked on the plan
// step and how the install went, so a reload (or signing in again) resumes with the same choices.
import type { SetupState } from '../../api/types';

export interface WizardChoices {
  /** Extra feature items to install after the essentials. */
  extras?: string[];
  /** 'done' once the essentials are installed (the stream is not opened again on resume). */
  install?: 'done';
  /** Extras handed to the download queue when the install finished. */
  queued?: number;
}

export function savedChoices(state: SetupState | null | undefined): WizardChoices {
  const s = state ?? {};
  return {
    extras: Array.isArray(s.extras) ? s.extras.filter((x): x is string => typeof x === 'string') : undefined,
    install: s.install === 'done' ? 'done' : undefined,
    queued: typeof s.queued === 'number' ? s.queued : undefined,
  };
}
