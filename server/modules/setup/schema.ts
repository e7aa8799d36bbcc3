import { z } from 'zod';
import { Pin, PublicUser, UserName } from '../auth/schema.js';
import { JobState } from '../downloads/schema.js';
import { FeaturePlan } from '../features/schema.js';

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

/** weakPin: the PIN is easy to guess (auth's isWeakPin); it is saved all the same. */
export const CreateAdminResponse = z.object({ user: PublicUser, weakPin: z.boolean() });
export type CreateAdminResponse = z.infer<typeof CreateAdminResponse>;
export const SetupStateResponse = z.object({ state: SetupState });
export type SetupStateResponse = z.infer<typeof SetupStateResponse>;

/** GET /api/setup/catalog: the feature plan, checked against the model runtime. */
export const SetupCatalog = FeaturePlan.extend({
  /** The model runtime as setup found it. */
  runtime: z.object({ running: z.boolean(), installed: z.boolean() }),
  /** Items that install a model into the model runtime (not recommended while it is not running). */
  needsRuntime: z.array(z.string()),
});
export type SetupCatalog = z.infer<typeof SetupCatalog>;

/** POST /api/setup/download's events (setup/install.ts); `error {code, message}` is the stream runner's. */
export const SetupInstallEvents = z.object({
  plan: z.object({
    essentials: z.array(z.object({ key: z.enum(['chat', 'embeddings', 'router']), itemId: z.string(), name: z.string() })),
    jobs: z.array(z.object({ id: z.string(), label: z.string() })),
  }),
  progress: z.object({
    jobId: z.string(),
    label: z.string(),
    state: JobState,
    bytesDone: z.number().nonnegative(),
    bytesTotal: z.number().nullable(),
    speedBps: z.number().nonnegative(),
    etaSeconds: z.number().nullable(),
    error: z.string().nullable(),
  }),
  /** `notInstalled` (item names) and `reason` when the model runtime was not running (the models were left out). */
  done: z.object({ queued: z.number().int().nonnegative(), notInstalled: z.array(z.string()).optional(), reason: z.string().optional() }),
});
export type SetupInstallEvents = z.infer<typeof SetupInstallEvents>;

/** One essential of "Finish setting up" on an admin's Home: what is missing and where to fix it. */
export const SetupChecklistItem = z.object({
  key: z.enum(['runtime', 'models', 'members']),
  title: z.string(),
  done: z.boolean(),
  /** What is missing (or, when done, what is there), as a sentence. */
  detail: z.string(),
  /** The page that fixes it (a web app path); null when done. */
  fix: z.object({ label: z.string(), path: z.string() }).nullable(),
});
export type SetupChecklistItem = z.infer<typeof SetupChecklistItem>;

/** GET /api/setup/checklist (admins): the essentials setup leaves; `done` when every item is. */
export const SetupChecklist = z.object({ done: z.boolean(), items: z.array(SetupChecklistItem) });
export type SetupChecklist = z.infer<typeof SetupChecklist>;
