import { z } from 'zod';

export const ENABLED_KEY = '__enabled';
export const MAX_REQUEST_MESSAGE_LENGTH = 500;

export const DataSourceType = z.enum(['api', 'rss', 'web', 'cdn']);
export const DataSource = z.object({ type: DataSourceType, domain: z.string(), purpose: z.string() });
export type DataSource = z.infer<typeof DataSource>;

/** What a module contributes to the registry. */
export interface ToolDefinition {
  id: string;
  name: string;
  description: string;
  /** true = Extension (chat-only, no page); false = App with a page route. The name is inverted on purpose (spec). */
  offline: boolean;
  examples: string[];
  /** JSON schema of the tool's configuration. */
  configSchema: Record<string, unknown>;
  /** Where the tool reaches outside the house; empty = fully local. */
  dataSources: DataSource[];
  category: string;
  /** A short emoji or icon name for the store and navigation. */
  icon: string;
}

/**
 * The one fixed table from tool id to the web app's page route (tool ids and routes are
 * different strings). Only Apps have a route.
 */
export const TOOL_ROUTES: Readonly<Record<string, string>> = {
  reader: '/reader',
  library: '/library',
  inventory: '/inventory',
  today: '/today',
  'offline-maps': '/maps',
  videos: '/videos',
  podcasts: '/listen',
  shows: '/watch',
  films: '/watch',
};

/**
 * Whether the household can use something right now. When it cannot, `unavailableReason` says why
 * and `fix` what an admin does about it, both as sentences for people (never a code).
 */
export const Availability = z.object({ available: z.boolean(), unavailableReason: z.string().nullable(), fix: z.string().nullable() });
export type Availability = z.infer<typeof Availability>;
export const AVAILABLE: Availability = { available: true, unavailableReason: null, fix: null };
export const unavailable = (unavailableReason: string, fix: string | null): Availability => ({ available: false, unavailableReason, fix });
/** Asks the real state (runtime, archives…) through the owning module's service. */
export type AvailabilityCheck = () => Promise<Availability>;

export const Tool = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  offline: z.boolean(),
  examples: z.array(z.string()),
  configSchema: z.record(z.string(), z.unknown()),
  dataSources: z.array(DataSource),
  category: z.string(),
  icon: z.string(),
  route: z.string().nullable(),
  enabled: z.boolean(),
  ...Availability.shape,
});
export type Tool = z.infer<typeof Tool>;
export const ToolsResponse = z.object({ tools: z.array(Tool) });
export type ToolsResponse = z.infer<typeof ToolsResponse>;
export const ToolResponse = z.object({ tool: Tool });
export type ToolResponse = z.infer<typeof ToolResponse>;
/** POST /api/app-store/request: the admins' notification; `duplicate` when this member already asked (200, not 201). */
export const InstallRequestResponse = z.object({ ok: z.literal(true), notificationId: z.string(), duplicate: z.boolean() });
export type InstallRequestResponse = z.infer<typeof InstallRequestResponse>;

export const ToolIdParams = z.object({ id: z.string().min(1).max(100) });
export const SetEnabledBody = z.object({ enabled: z.boolean() });
export const InstallRequestBody = z.object({
  toolId: z.string().min(1).max(100),
  toolName: z.string().trim().min(1).max(100),
  message: z.string().trim().max(MAX_REQUEST_MESSAGE_LENGTH).optional(),
});
export type InstallRequestBody = z.infer<typeof InstallRequestBody>;
