import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { Scheduler } from '../../server/platform/scheduler.js';

// Fake timers: the intervals and the tasks' own waits run on vitest's clock, so each test states
// exactly what happens at which millisecond and takes no real time.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Scheduler', () => {
  it('never runs one task twice at the same time: a tick during a run is skipped', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    scheduler.every('slow', 5, async () => {
      running++;
      runs++;
      maxRunning = Math.max(maxRunning, running);
      await sleep(40);
      running--;
    });
    await vi.advanceTimersByTimeAsync(150);
    // 30 ticks in 150 ms, but a run takes 40 ms and the ticks during it are skipped:
    // runs start at 5, 50, 95 and 140 ms
    expect(runs).toBe(4);
    expect(running).toBe(1);
    const stopped = scheduler.stop();
    await vi.advanceTimersByTimeAsync(40);
    await stopped;
    expect(running).toBe(0);
    expect(runs).toBe(4);
    expect(maxRunning).toBe(1);
  });

  it('runNow does not start a second run while one is going', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    let runs = 0;
    const task = async () => {
      runs++;
      await sleep(30);
    };
    scheduler.every('job', 60_000, task);
    const three = Promise.all([scheduler.runNow('job', task), scheduler.runNow('job', task), scheduler.runNow('job', task)]);
    await vi.advanceTimersByTimeAsync(30);
    await three;
    expect(runs).toBe(1);
    const again = scheduler.runNow('job', task);
    await vi.advanceTimersByTimeAsync(30);
    await again;
    expect(runs).toBe(2);
    await scheduler.stop();
  });

  it('stop() waits for the run in progress, and nothing runs afterwards', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    let finished = false;
    let stopped = false;
    let runs = 0;
    const task = async () => {
      runs++;
      await sleep(50);
      finished = true;
    };
    scheduler.every('job', 60_000, task);
    void scheduler.runNow('job', task);
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(49);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(finished).toBe(true);
    await scheduler.runNow('job', task);
    // two interval periods later the stopped timer has not fired either
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(1);
  });

  it('logs a failing run (thrown at once or rejected later) and keeps the task alive', async () => {
    const logger = createMemoryLogger();
    const scheduler = new Scheduler(logger);
    let calls = 0;
    const task = (): Promise<void> | void => {
      calls++;
      if (calls === 1) throw new Error('first run throws synchronously');
      if (calls === 2) return Promise.reject(new Error('second run rejects'));
    };
    scheduler.every('flaky', 60_000, task);
    await expect(scheduler.runNow('flaky', task)).resolves.toBeUndefined();
    await expect(scheduler.runNow('flaky', task)).resolves.toBeUndefined();
    await scheduler.runNow('flaky', task);
    expect(calls).toBe(3);
    expect(logger.lines.filter((l) => l.msg === 'scheduled task failed')).toHaveLength(2);
    expect(logger.lines.some((l) => l.msg === 'scheduled task failed' && l.task === 'flaky')).toBe(true);
    // the interval keeps calling it after the failures
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(4);
    await scheduler.stop();
  });

  it('refuses two tasks with the same name', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    scheduler.every('once', 60_000, () => {});
    expect(() => scheduler.every('once', 60_000, () => {})).toThrow(/already exists/);
    await scheduler.stop();
  });
});
