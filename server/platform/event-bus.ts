// Typed in-process events for one-way cross-feature facts ("user deleted", "download completed"),
// so producers do not depend on consumers. Listeners' errors are logged, never thrown back.
import type { Logger } from './logger.js';

export interface EventMap {
  'user.deleted': { userId: string };
  'boot.done': Record<string, never>;
  'download.completed': { jobId: string; kind: string; itemId: string | null; destination: string | null; target: string };
  'download.failed': { jobId: string; kind: string; itemId: string | null; error: string };
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

  clear(): void {
    this.listeners.clear();
  }
}
