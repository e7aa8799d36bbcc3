import { describe, expect, it } from 'vitest';
import { backoffMs, nextWakeAt, pickJobsToStart, type SchedulableJob } from '../../server/modules/downloads/scheduling.js';
import { PRIORITY_BY_KIND } from '../../server/modules/downloads/schema.js';

const NOW = new Date('2026-06-01T12:00:00Z');
let n = 0;
const job = (over: Partial<SchedulableJob> = {}): SchedulableJob => ({
  id: `j${++n}`,
  state: 'pending',
  large: false,
  hostClass: 'archive',
  priority: 0,
  position: n,
  createdAt: new Date(NOW.getTime() - 1000 * (100 - n)).toISOString(),
  nextAttemptAt: null,
  requires: [],
  ...over,
});

describe('pickJobsToStart', () => {
  it('starts at most 4 jobs in all', () => {
    const hosts = ['archive', 'maps', 'model_hub', 'model_runtime', 'image_engine', 'code_host'] as const;
    const jobs = hosts.map((h) => job({ hostClass: h }));
    expect(pickJobsToStart(jobs, NOW).start).toHaveLength(4);
    const running = [job({ state: 'running', hostClass: 'local' }), job({ state: 'running', hostClass: 'maps' }), job({ state: 'running', hostClass: 'code_host' })];
    expect(pickJobsToStart([...running, job({ hostClass: 'archive' }), job({ hostClass: 'model_hub' })], NOW).start).toHaveLength(1);
  });

  it('runs at most one large job (2 GB or more)', () => {
    const a = job({ large: true, hostClass: 'archive' });
    const b = job({ large: true, hostClass: 'model_hub' });
    const c = job({ large: false, hostClass: 'maps' });
    expect(pickJobsToStart([a, b, c], NOW).start).toEqual([a.id, c.id]);
    expect(pickJobsToStart([{ ...a, state: 'running' }, b, c], NOW).start).toEqual([c.id]);
  });

  it('runs at most one job per host class', () => {
    const a = job({ hostClass: 'archive' });
    const b = job({ hostClass: 'archive' });
    const c = job({ hostClass: 'maps' });
    expect(pickJobsToStart([a, b, c], NOW).start).toEqual([a.id, c.id]);
    expect(pickJobsToStart([{ ...a, state: 'running' }, b], NOW).start).toEqual([]);
  });

  it('orders by priority class: archives, maps, models, components (and podcast episodes), runtime models (and saved videos)', () => {
    expect(Object.entries(PRIORITY_BY_KIND).sort((x, y) => x[1] - y[1]).map(([k]) => k)).toEqual(['archive', 'map', 'model', 'component', 'podcast', 'runtime_model', 'video']);
    const jobs = [
      job({ priority: PRIORITY_BY_KIND.runtime_model, hostClass: 'model_runtime' }),
      job({ priority: PRIORITY_BY_KIND.component, hostClass: 'code_host' }),
      job({ priority: PRIORITY_BY_KIND.model, hostClass: 'model_hub' }),
      job({ priority: PRIORITY_BY_KIND.map, hostClass: 'maps' }),
      job({ priority: PRIORITY_BY_KIND.archive, hostClass: 'archive' }),
    ];
    expect(pickJobsToStart(jobs, NOW).start).toEqual([jobs[4]!.id, jobs[3]!.id, jobs[2]!.id, jobs[1]!.id]);
  });

  it("within a class, the admin's position wins over age", () => {
    const older = job({ position: 5 });
    const moved = job({ position: 1 });
    expect(pickJobsToStart([older, moved], NOW).start).toEqual([moved.id]);
  });

  it('waits for backoff to pass', () => {
    const later = job({ nextAttemptAt: new Date(NOW.getTime() + 5000).toISOString() });
    const ready = job({ hostClass: 'maps', nextAttemptAt: new Date(NOW.getTime() - 1).toISOString() });
    expect(pickJobsToStart([later, ready], NOW).start).toEqual([ready.id]);
    expect(nextWakeAt([later, ready], NOW)?.toISOString()).toBe(later.nextAttemptAt);
  });

  it('holds a job until its prerequisites complete, and reports it blocked when one failed or is missing', () => {
    const tools = job({ hostClass: 'code_host' });
    const archive = job({ requires: [tools.id] });
    expect(pickJobsToStart([tools, archive], NOW).start).toEqual([tools.id]);
    expect(pickJobsToStart([{ ...tools, state: 'running' }, archive], NOW).start).toEqual([]);
    expect(pickJobsToStart([{ ...tools, state: 'completed' }, archive], NOW).start).toEqual([archive.id]);
    expect(pickJobsToStart([{ ...tools, state: 'failed' }, archive], NOW).blocked).toEqual([archive.id]);
    expect(pickJobsToStart([{ ...tools, state: 'cancelled' }, archive], NOW).blocked).toEqual([archive.id]);
    expect(pickJobsToStart([archive], NOW).blocked).toEqual([archive.id]);
  });

  it('a waiting large job does not stop smaller ones behind it', () => {
    const runningLarge = job({ state: 'running', large: true, hostClass: 'model_hub' });
    const large = job({ large: true, hostClass: 'archive' });
    const small = job({ hostClass: 'maps', priority: 1 });
    expect(pickJobsToStart([runningLarge, large, small], NOW).start).toEqual([small.id]);
  });
});

describe('backoffMs', () => {
  it('doubles from 5 s with ±20% jitter and caps at 10 minutes', () => {
    expect(backoffMs(1, () => 0.5)).toBe(5000);
    expect(backoffMs(2, () => 0.5)).toBe(10000);
    expect(backoffMs(5, () => 0.5)).toBe(80000);
    expect(backoffMs(20, () => 0.5)).toBe(600000);
    expect(backoffMs(1, () => 0)).toBe(4000);
    expect(backoffMs(1, () => 1)).toBe(6000);
  });
});
