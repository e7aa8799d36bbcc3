// Child processes in crash and supervisor tests: waiting for one to exit, and asking whether a pid lives.
import type { ChildProcess } from 'node:child_process';

/** Resolves once the child has exited (at once when it already has). */
export const exited = (c: ChildProcess): Promise<unknown> =>
  new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)));

/** Whether a process with this pid still runs (signal 0 checks without sending anything). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
