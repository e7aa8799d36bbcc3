// The tray's status lines come from the server's own HTTP status API, read over loopback like any
// other client: GET /api/archives/status (signed-in users only, so the request carries the session
// cookie of the Hearth window) and GET /api/setup/ollama-status (open). The image engine has no
// status API yet. Fetch is injected, so this is tested without Electron.
import { z } from 'zod';

export const ArchivesStatus = z.object({
  kiwixInstalled: z.boolean(),
  kiwixState: z.string(),
  kiwixError: z.string().nullable(),
  installedCount: z.number().int().nonnegative(),
});
export type ArchivesStatus = z.infer<typeof ArchivesStatus>;

export const ModelRuntimeStatus = z.object({
  installed: z.boolean(),
  running: z.boolean(),
  version: z.string().nullable().optional(),
  models: z.array(z.object({ name: z.string() })).optional(),
  error: z.string().nullable().optional(),
});
export type ModelRuntimeStatus = z.infer<typeof ModelRuntimeStatus>;

/** What one status request told us. */
export type Reading<T> = { kind: 'ok'; value: T } | { kind: 'signed-out' } | { kind: 'unavailable'; reason: string };

export interface ServerStatuses {
  archives: Reading<ArchivesStatus>;
  modelRuntime: Reading<ModelRuntimeStatus>;
}

export type StatusFetch = (url: string) => Promise<Pick<Response, 'ok' | 'status' | 'json'>>;

export const STATUS_TIMEOUT_MS = 5_000;

async function read<T>(fetchFn: StatusFetch, url: string, schema: z.ZodType<T>): Promise<Reading<T>> {
  try {
    const res = await fetchFn(url);
    if (res.status === 401 || res.status === 403) return { kind: 'signed-out' };
    if (!res.ok) return { kind: 'unavailable', reason: `HTTP ${res.status}` };
    const parsed = schema.safeParse(await res.json());
    return parsed.success ? { kind: 'ok', value: parsed.data } : { kind: 'unavailable', reason: 'unexpected answer' };
  } catch (err) {
    return { kind: 'unavailable', reason: (err as Error).message };
  }
}

export async function fetchStatuses(baseUrl: string, fetchFn: StatusFetch): Promise<ServerStatuses> {
  const [archives, modelRuntime] = await Promise.all([
    read(fetchFn, `${baseUrl}/api/archives/status`, ArchivesStatus),
    read(fetchFn, `${baseUrl}/api/setup/ollama-status`, ModelRuntimeStatus),
  ]);
  return { archives, modelRuntime };
}
