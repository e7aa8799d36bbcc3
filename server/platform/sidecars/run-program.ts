// One run of a program to its end (a Python venv made, a pip install), beside the supervisor's
// long-running sidecars: the same spawn rules (childProcessEnv, no stdin, stdout and stderr read
// line by line into `onLine`), and the whole process tree killed (tree-kill: SIGTERM, then SIGKILL
// after a grace) when `signal` aborts. It never rejects: a program that cannot be started at all
// (ENOENT) comes back as `spawnError`.
import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';
import { childProcessEnv } from '../../config.js';

export interface ProgramRun {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** Each non-empty output line, stdout and stderr alike (trimmed). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** After SIGTERM on abort, how long before SIGKILL. */
  killGraceMs?: number;
}

export interface ProgramResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The program could not be started (its message, e.g. "spawn python3 ENOENT"), or null. */
  spawnError: string | null;
  /** Stopped because `signal` aborted. */
  aborted: boolean;
}

export function runProgram(run: ProgramRun): Promise<ProgramResult> {
  return new Promise((resolve) => {
    if (run.signal?.aborted) return resolve({ code: null, signal: null, spawnError: null, aborted: true });
    let child;
    try {
      child = spawn(run.command, run.args, { env: childProcessEnv(run.env), cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      return resolve({ code: null, signal: null, spawnError: (err as Error).message, aborted: false });
    }
    let spawnError: string | null = null;
    let aborted = false;
    let hard: NodeJS.Timeout | null = null;
    const onAbort = () => {
      aborted = true;
      if (!child.pid || child.exitCode !== null) return;
      treeKill(child.pid, 'SIGTERM');
      hard = setTimeout(() => child.pid && treeKill(child.pid, 'SIGKILL'), run.killGraceMs ?? 3000);
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const pipe = (stream: NodeJS.ReadableStream, name: 'stdout' | 'stderr') => {
      let buf = '';
      stream.setEncoding('utf8');
      const flush = (all: boolean) => {
        let nl;
        while ((nl = buf.search(/[\r\n]/)) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) run.onLine?.(line, name);
        }
        if (all && buf.trim()) run.onLine?.(buf.trim(), name);
        if (all) buf = '';
      };
      stream.on('data', (d: string) => {
        buf += d;
        flush(false);
      });
      stream.on('end', () => flush(true));
    };
    pipe(child.stdout, 'stdout');
    pipe(child.stderr, 'stderr');
    child.once('error', (e) => {
      spawnError = e.message;
    });
    child.once('close', (code, sig) => {
      if (hard) clearTimeout(hard);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({ code, signal: sig, spawnError, aborted });
    });
  });
}
