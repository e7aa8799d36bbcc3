// Admin › Connectivity (/api/admin/connectivity): how phones reach Hearth, whether the internet
// answers, each outside source's last outcome, and offline mode as a household setting; and the
// offline state every member's pages show (/api/connectivity).
import { z } from 'zod';

export const OfflineReason = z.enum(['env', 'admin']);

export const OfflineModeState = z.strictObject({
  on: z.boolean(),
  /** `env`: Hearth was started in offline mode (the admin's switch is locked on); `admin`: an admin switched it on. */
  reason: OfflineReason.nullable(),
  /** The sentence refusals say while it is on; null while off. */
  message: z.string().nullable(),
});
export type OfflineModeState = z.infer<typeof OfflineModeState>;

/** GET /api/connectivity: what every member's pages need to say why nothing is fetched. */
export const ConnectivityStatusResponse = z.strictObject({ offlineMode: OfflineModeState });
export type ConnectivityStatusResponse = z.infer<typeof ConnectivityStatusResponse>;

export const PhoneAddress = z.strictObject({
  url: z.string(),
  /** HTTPS (the household certificate a phone trusts once on the Trust page). */
  secure: z.boolean(),
});

export const InternetCheck = z.strictObject({
  /** `offline`: not checked, offline mode is on; `reachable`/`unreachable`: the last check's outcome. */
  status: z.enum(['reachable', 'unreachable', 'offline']),
  /** When the check ran (ISO); null when it did not (offline mode). */
  checkedAt: z.string().nullable(),
  /** The host asked (no path, no query). */
  host: z.string(),
  /** Why it failed, in a sentence; null otherwise. */
  message: z.string().nullable(),
});
export type InternetCheck = z.infer<typeof InternetCheck>;

export const OutboundSource = z.strictObject({
  name: z.string(),
  lastSuccessAt: z.string().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
});
export type OutboundSource = z.infer<typeof OutboundSource>;

export const ConnectivityResponse = z.strictObject({
  /** `lan`: other devices can open `addresses`; `loopback`: Hearth answers this computer only; `no_network`: no network address. */
  reach: z.enum(['lan', 'loopback', 'no_network']),
  /** How phones and laptops at home open Hearth, most likely first, the secure address first when HTTPS is on. */
  addresses: z.array(PhoneAddress),
  /** The HOST Hearth listens on. */
  host: z.string(),
  internet: InternetCheck,
  /** Each outside source the household has used, with its last good fetch and last failure. */
  sources: z.array(OutboundSource),
  offlineMode: OfflineModeState.extend({
    /** The admin's switch cannot turn it off (Hearth was started in offline mode). */
    locked: z.boolean(),
  }),
});
export type ConnectivityResponse = z.infer<typeof ConnectivityResponse>;

export const PutConnectivityBody = z.strictObject({
  offlineMode: z.boolean({ error: 'offlineMode is true (offline) or false (online).' }),
});
export type PutConnectivityBody = z.infer<typeof PutConnectivityBody>;
