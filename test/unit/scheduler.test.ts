import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { Scheduler } from '../../server/platform/scheduler.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    await sleep(150);
    await scheduler.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(5); // ~30 ticks, but only one run per 40 ms
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
    await Promise.all([scheduler.runNow('job', task), scheduler.runNow('job', task), scheduler.runNow('job', task)]);
    expect(runs).toBe(1);
    await scheduler.runNow('job', task);
    expect(runs).toBe(2);
    await scheduler.stop();
  });

  it('stop() waits for the run in progress, and nothing runs afterwards', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    let finished = false;
    let runs = 0;
    const task = async () => {
      runs++;
      await sleep(50);
      finished = true;
    };
    scheduler.every('job', 60_000, task);
    void scheduler.runNow('job', task);
    await scheduler.stop();
    expect(finished).toBe(true);
    await scheduler.runNow('job', task);
    await sleep(20);
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
    await scheduler.stop();
  });

  it('refuses two tasks with the same name', async () => {
    const scheduler = new Scheduler(createMemoryLogger());
    scheduler.every('once', 60_000, () => {});
    expect(() => scheduler.every('once', 60_000, () => {})).toThrow(/already exists/);
    await scheduler.stop();
  });
});
