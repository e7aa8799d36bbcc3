// What the media server module asks of the rest of Hearth (container.ts hands these in).
import type { Level } from '../content/schema.js';
import type { MemberDirectory } from './export-service.js';
import type { MediaConnection } from './parts.js';

export interface MediaServerPorts {
  /** The household's members (the auth module's users): provisioning names and checks them. */
  members: MemberDirectory;
  /** A test's stand-in for the export's view of the shared connection (default: the module's own). */
  exportConnection?: MediaConnection;
  /** The content module: the member's Media level (titles rated above it are hidden from them). */
  mediaLevel(userId: string): Promise<Level>;
}
