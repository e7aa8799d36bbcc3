// Typed in-process events for one-way cross-feature facts ("download completed"), so producers do
// not depend on consumers. Listeners' errors are logged, never thrown back. Listeners are registered
// by each module (the `listeners` of modules/<x>/module.ts, wired by container.ts); an event is added here together with its
// listener (test/api/event-listeners.test.ts fails for an emitted event nobody listens to).
import type { Logger } from './logger.js';

export interface EventMap {
  'download.completed': { jobId: string; kind: string; itemId: string | null; destination: string | null; target: string };
  /** A download failed for good (its last attempt, or a prerequisite that failed): the admins are told. */
  'download.failed': { jobId: string; label: string };
  /**
   * A notification was written (userId null: for every admin): the notify module sends it on to the
   * channels its member routed that type to.
   */
  'notification.created': { id: string; userId: string | null; type: string; payload: Record<string, unknown> };
  /** A member was deleted; their rows went with them (ON DELETE CASCADE), files on disk did not. */
  'user.deleted': { userId: string };
}

type Listener<K extends keyof EventMap> = (payload: EventMap[K]) => void | Promise<void>;

export class EventBus {
  private readonly listeners = new Map<keyof EventMap, Set<Listener<never>>>();
  constructor(private readonly logger: Logger) {}

  on<K extends keyof EventMap>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof EventMap>(event: K, payload: EventMap[K]): void {
    for (const l of this.listeners.get(event) ?? []) {
      try {
        const r = (l as Listener<K>)(payload);
        if (r instanceof Promise) r.catch((err: unknown) => this.logger.error({ err, event }, 'event listener failed'));
      } catch (err) {
        this.logger.error({ err, event }, 'event listener failed');
      }
    }
  }

  /** The events that have at least one listener. */
  listened(): Array<keyof EventMap> {
    return [...this.listeners].filter(([, set]) => set.size > 0).map(([event]) => event);
  }

  clear(): void {
    this.listeners.clear();
  }
}
