// The queue's rules as pure functions (no I/O), so they can be tested over plain inputs:
// which pending jobs may start now, and when a failed attempt is retried.
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, MAX_CONCURRENT_JOBS, MAX_LARGE_JOBS, type HostClass, type JobState } from './schema.js';

export interface SchedulableJob {
  id: string;
  state: JobState;
  large: boolean;
  hostClass: HostClass;
  priority: number;
  position: number;
  createdAt: string;
  nextAttemptAt: string | null;
  requires: string[];
}

export interface Limits {
  maxConcurrent: number;
  maxLarge: number;
}

export const SPEC_LIMITS: Limits = { maxConcurrent: MAX_CONCURRENT_JOBS, maxLarge: MAX_LARGE_JOBS };

/** Queue order: priority class, then the admin's position, then age. */
export function compareJobs(a: SchedulableJob, b: SchedulableJob): number {
  return a.priority - b.priority || a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/**
 * Picks the pending jobs to start now: at most `maxConcurrent` running in all, at most `maxLarge`
 * large ones, at most one per host class; a job whose prerequisites have not completed waits, and a
 * job whose prerequisite failed or was cancelled is reported as blocked.
 */
export function pickJobsToStart(jobs: readonly SchedulableJob[], now: Date, limits: Limits = SPEC_LIMITS): { start: string[]; blocked: string[] } {
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const running = jobs.filter((j) => j.state === 'running');
  let slots = limits.maxConcurrent - running.length;
  let large = running.filter((j) => j.large).length;
  const hosts = new Set(running.map((j) => j.hostClass));
  const start: string[] = [];
  const blocked: string[] = [];
  const candidates = jobs.filter((j) => j.state === 'pending').sort(compareJobs);
  for (const job of candidates) {
    const deps = job.requires.map((id) => byId.get(id));
    if (deps.some((d) => !d || d.state === 'failed' || d.state === 'cancelled')) {
      blocked.push(job.id);
      continue;
    }
    if (slots <= 0) break;
    if (deps.some((d) => d!.state !== 'completed')) continue;
    if (job.nextAttemptAt && new Date(job.nextAttemptAt) > now) continue;
    if (hosts.has(job.hostClass)) continue;
    if (job.large && large >= limits.maxLarge) continue;
    start.push(job.id);
    slots--;
    hosts.add(job.hostClass);
    if (job.large) large++;
  }
  return { start, blocked };
}

/**
 * Delay before attempt `attempt + 1` after `attempt` failed attempts: exponential from 5 s, capped
 * at 10 minutes, with ±20% jitter so retries from many jobs do not line up.
 */
export function backoffMs(attempt: number, random: () => number = Math.random, baseMs = BACKOFF_BASE_MS): number {
  const base = Math.min(BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The earliest moment something in the queue could become startable (for the runner's timer). */
export function nextWakeAt(jobs: readonly SchedulableJob[], now: Date): Date | null {
  let next: number | null = null;
  for (const j of jobs) {
    if (j.state !== 'pending' || !j.nextAttemptAt) continue;
    const t = new Date(j.nextAttemptAt).getTime();
    if (t > now.getTime() && (next === null || t < next)) next = t;
  }
  return next === null ? null : new Date(next);
}
