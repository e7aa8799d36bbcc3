// API shapes the web app uses. Types come from the server's schemas (type-only, nothing from the
// server ends up in the bundle); the boot stream has no schema module, so it is spelled here.
export type { AdminUser, PublicUser, Role, SelectResponse } from '../../../server/modules/auth/schema.js';
export type { ModelRuntimeStatus, SetupState, SetupStatus } from '../../../server/modules/setup/schema.js';

export type BootStatus = 'running' | 'ok' | 'warn' | 'error';

export interface BootStepEvent {
  key: string;
  label: string;
  status: BootStatus;
  detail: string;
}

export interface BootRepairEvent {
  key: string;
  completed: number;
  total: number;
  speedBps: number;
  etaSeconds: number | null;
}

export interface BootStreamEvents {
  step: BootStepEvent;
  repair: BootRepairEvent;
  done: Record<string, never>;
}
