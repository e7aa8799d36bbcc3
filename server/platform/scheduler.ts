// Named, stoppable intervals. One run at a time per name: a tick that finds the previous run still
// going is skipped, not stacked. Handlers are service methods; errors are logged.
import type { Logger } from './logger.js';

interface Task {
  timer: NodeJS.Timeout;
  running: Promise<void> | null;
}

export class Scheduler {
  private readonly tasks = new Map<string, Task>();
  private stopped = false;
  constructor(private readonly logger: Logger) {}

  every(name: string, intervalMs: number, run: () => Promise<void> | void): void {
    if (this.tasks.has(name)) throw new Error(`scheduler task ${name} already exists`);
    const task: Task = {
      running: null,
      timer: setInterval(() => void this.runNow(name, run), intervalMs),
    };
    task.timer.unref();
    this.tasks.set(name, task);
  }

  /** Runs a task now unless it is already running; resolves when that run ends. */
  async runNow(name: string, run: () => Promise<void> | void): Promise<void> {
    const task = this.tasks.get(name);
    if (this.stopped || !task || task.running) return;
    // Started on a microtask: a handler that throws synchronously would otherwise clear
    // `running` before it is set, and the task would look busy forever.
    const current = Promise.resolve()
      .then(run)
      .then(
        () => undefined,
        (err: unknown) => this.logger.error({ err, task: name }, 'scheduled task failed'),
      )
      .finally(() => {
        task.running = null;
      });
    task.running = current;
    return current;
  }

  /** Stops every timer and waits for runs in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = [...this.tasks.values()].map((t) => {
      clearInterval(t.timer);
      return t.running;
    });
    this.tasks.clear();
    await Promise.all(running);
  }
}
