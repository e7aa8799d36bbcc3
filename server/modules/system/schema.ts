import { z } from 'zod';

/** GET /api/system/ready: 200 once boot is done, 503 before. */
export const ReadyResponse = z.object({ done: z.boolean() });
export type ReadyResponse = z.infer<typeof ReadyResponse>;

export const BootStatus = z.enum(['running', 'ok', 'warn', 'error']);
export type BootStatus = z.infer<typeof BootStatus>;

/** A boot step's latest state. */
export const BootStepEvent = z.object({ key: z.string(), label: z.string(), status: BootStatus, detail: z.string() });
export type BootStepEvent = z.infer<typeof BootStepEvent>;

/** Byte progress of a repair a step is running (a model pull, say). */
export const BootRepairEvent = z.object({
  key: z.string(),
  completed: z.number().nonnegative(),
  total: z.number().nonnegative(),
  speedBps: z.number().nonnegative(),
  etaSeconds: z.number().nullable(),
});
export type BootRepairEvent = z.infer<typeof BootRepairEvent>;

/** GET /api/system/boot's events (replayed from the start to every viewer); `done` ends the stream. */
export const BootEvents = z.object({ step: BootStepEvent, repair: BootRepairEvent, done: z.object({}).strict() });
export type BootEvents = z.infer<typeof BootEvents>;

/**
 * GET /api/system/addresses: what to type on another device in the house (best first). `reach`
 * says why the list is empty: `loopback` (Hearth answers on this computer only) or `no_network`.
 */
export const HouseAddressesResponse = z.object({
  addresses: z.array(z.string()),
  reach: z.enum(['lan', 'loopback', 'no_network']),
  /** The HOST setting Hearth was started with (to say how to change it). */
  host: z.string(),
});
export type HouseAddressesResponse = z.infer<typeof HouseAddressesResponse>;
