import { z } from 'zod';
import { Pin, PublicUser, UserName } from '../auth/schema.js';

export const MAX_SETUP_STATE_BYTES = 16 * 1024;

export const SETTING_WELCOME_COMPLETE = 'setup.welcome_complete';
export const SETTING_WIZARD_STATE = 'setup.state';

export const CreateAdminBody = z.object({ name: UserName, pin: Pin });

/** Wizard resume state: whatever the wizard needs, as a JSON object (step, choices…). */
export const SetupState = z.record(z.string(), z.unknown());
export type SetupState = z.infer<typeof SetupState>;

export const SetupStatus = z.object({
  needsAdmin: z.boolean(),
  welcomeComplete: z.boolean(),
  state: SetupState.nullable(),
});
export type SetupStatus = z.infer<typeof SetupStatus>;

export const ModelRuntimeStatus = z.object({
  installed: z.boolean(),
  running: z.boolean(),
  version: z.string().nullable(),
  url: z.string(),
  models: z.array(z.object({ name: z.string(), sizeBytes: z.number().nullable() })),
  error: z.string().nullable(),
});
export type ModelRuntimeStatus = z.infer<typeof ModelRuntimeStatus>;

export const CreateAdminResponse = z.object({ user: PublicUser });
