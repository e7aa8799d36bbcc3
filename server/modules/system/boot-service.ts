// The boot sequence: named steps run in order after the server starts listening, each reported
// as `step` events through a ReplayChannel (GET /api/system/boot), then `done`. A failing step is
// reported and boot goes on: the server must come up with no sidecar present.
import { AppError } from '../../errors.js';
import type { ReplayChannel } from '../../http/sse.js';
import type { Logger } from '../../platform/logger.js';
import type { BootEvents, BootRepairEvent, BootStatus, BootStepEvent } from './schema.js';

export type BootEvent = keyof BootEvents;

export interface BootStepResult {
  status: Exclude<BootStatus, 'running'>;
  detail: string;
}

export interface BootStepContext {
  signal: AbortSignal;
  /** Byte progress of a repair this step is running (a model pull, say). */
  repair(progress: Omit<BootRepairEvent, 'key'>): void;
}

export interface BootStepDefinition {
  key: string;
  label: string;
  run(ctx: BootStepContext): Promise<BootStepResult>;
}

export class BootService {
  private readonly controller = new AbortController();
  /** Rejects on stop(), so a step that ignores its signal cannot hold close() hostage. */
  private readonly stopped = new Promise<never>((_resolve, reject) => {
    this.controller.signal.addEventListener('abort', () => reject(new Error('boot stopped')), { once: true });
  });
  private running: Promise<void> | null = null;
  private finished = false;
  private readonly results = new Map<string, BootStepEvent>();

  constructor(
    private readonly deps: { channel: ReplayChannel<BootEvent>; logger: Logger; steps: BootStepDefinition[] },
  ) {
    this.stopped.catch(() => undefined);
  }

  get isDone(): boolean {
    return this.finished;
  }

  get channel(): ReplayChannel<BootEvent> {
    return this.deps.channel;
  }

  /** The latest state of each step, in boot order. */
  steps(): BootStepEvent[] {
    return this.deps.steps.map((s) => this.results.get(s.key) ?? { key: s.key, label: s.label, status: 'running', detail: 'Waiting' });
  }

  start(): Promise<void> {
    this.running ??= this.runAll();
    return this.running;
  }

  private emit(e: BootStepEvent): void {
    this.results.set(e.key, e);
    this.deps.channel.publish('step', e);
  }

  private async runAll(): Promise<void> {
    const { logger, steps, channel } = this.deps;
    for (const step of steps) {
      if (this.controller.signal.aborted) return;
      this.emit({ key: step.key, label: step.label, status: 'running', detail: '' });
      let result: BootStepResult;
      try {
        result = await Promise.race([
          step.run({
            signal: this.controller.signal,
            repair: (p) => channel.publish('repair', { key: step.key, ...p }),
          }),
          this.stopped,
        ]);
      } catch (err) {
        if (this.controller.signal.aborted) return;
        logger.error({ err, step: step.key }, 'boot step failed');
        // the boot stream is open to anyone: an unexpected exception's own message stays in the log
        result = { status: 'error', detail: err instanceof AppError ? err.message : 'This check failed unexpectedly. The details are in Hearth\'s log.' };
      }
      this.emit({ key: step.key, label: step.label, ...result });
      (result.status === 'ok' ? logger.debug : logger.warn)({ step: step.key, status: result.status, detail: result.detail }, 'boot step');
    }
    this.finished = true;
    channel.publish('done', {});
    channel.end();
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running?.catch(() => undefined);
    this.deps.channel.end();
  }
}
