// Child processes in crash and supervisor tests: Hearth itself in a child process (started, killed
// with -9, started again on the same DATA_DIR), waiting for a process to exit, whether a pid lives,
// and what a process started.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CLOSED_URL, until } from './net.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

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

/**
 * Hearth as `npm start` runs it (server/cli.ts under tsx) in a child process on 127.0.0.1:port,
 * resolved once /api/system/ready answers 200. The environment is the test's own plus PORT, HOST,
 * DATA_DIR, LOG_LEVEL=warn and a closed model runtime; `env` adds to or overrides it. A child that
 * exits or never becomes ready fails the start (and is killed). `nodeArgs` go before the script
 * (after tsx), e.g. another `--import`.
 */
export async function startHearthProcess(opts: { port: number; dataDir: string; env?: Record<string, string>; what?: string; nodeArgs?: string[] }): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(opts.nodeArgs ?? []), path.join(ROOT, 'server/cli.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(opts.port), HTTPS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: opts.dataDir, LOG_LEVEL: 'warn', MODEL_RUNTIME_URL: CLOSED_URL, ...opts.env },
    stdio: 'ignore',
  });
  const what = opts.what ?? 'Hearth to be ready';
  try {
    await Promise.race([
      until(async () => (await fetch(`http://127.0.0.1:${opts.port}/api/system/ready`)).status === 200, what),
      exited(child).then(() => {
        throw new Error(`Hearth exited (${child.signalCode ?? `exit code ${child.exitCode}`}) while waiting for ${what}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return child;
}

/** kill -9, resolved once the process is gone. */
export async function kill9(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
}

/** Stops a child still running (SIGTERM) and waits for it; nothing for null or one already gone. */
export async function stopProcess(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await exited(child);
}

/** The processes `parent` started, with their command lines (Linux /proc). */
export function childrenOf(parent: number): Array<{ pid: number; argv: string[] }> {
  const out: Array<{ pid: number; argv: string[] }> = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      out.push({ pid: Number(pid), argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
