// A sidecar's pid file (DATA_DIR/run/<name>.pid): the pid and command line of the copy Hearth
// started, so that a copy left running by a Hearth killed with -9 is recognized and stopped at the
// next start, and nothing else ever is (the pid must still run the very command line recorded).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import treeKill from 'tree-kill';
import type { Logger } from '../logger.js';
import { sleep } from '../sleep.js';

export interface PidRecord {
  pid: number;
  argv: string[];
}

export class PidFile {
  /** `file` unset: nothing is recorded and no orphan is ever recognized. */
  constructor(
    private readonly file: string | undefined,
    private readonly logger: Logger,
  ) {}

  read(): PidRecord | null {
    if (!this.file) return null;
    try {
      const rec = JSON.parse(readFileSync(this.file, 'utf8')) as PidRecord;
      return Number.isInteger(rec.pid) && rec.pid > 0 && Array.isArray(rec.argv) ? rec : null;
    } catch {
      return null;
    }
  }

  write(rec: PidRecord): void {
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileSync(this.file, JSON.stringify(rec));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not write the pid file');
    }
  }

  /** Removes the file when it names `pid` (any pid when undefined). */
  remove(pid: number | undefined): void {
    if (!this.file || (pid !== undefined && this.read()?.pid !== pid)) return;
    rmSync(this.file, { force: true });
  }

  /**
   * A program left running by a Hearth that was killed (kill -9) holds the port: stop it, but only
   * when the pid file names it and that pid still runs the very command line Hearth started.
   */
  async reclaimOrphan(ownPid: number | undefined, graceMs: number): Promise<void> {
    const rec = this.read();
    if (!rec || rec.pid === ownPid) return;
    if (isAlive(rec.pid) && sameCommandLine(commandLineOf(rec.pid), rec.argv)) {
      this.logger.warn({ pid: rec.pid }, 'stopping the copy left running by an earlier Hearth');
      await killPid(rec.pid, graceMs);
    }
    this.remove(undefined);
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** A process's command line as its argv (Linux /proc, else ps); null when it cannot be read. */
function commandLineOf(pid: number): string[] | string | null {
  try {
    if (process.platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    if (process.platform === 'win32') return null;
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function sameCommandLine(actual: string[] | string | null, argv: string[]): boolean {
  if (actual === null || !argv.length) return false;
  return Array.isArray(actual) ? actual.length === argv.length && actual.every((a, i) => a === argv[i]) : actual === argv.join(' ');
}

async function killPid(pid: number, graceMs: number): Promise<void> {
  const gone = async (ms: number) => {
    const end = Date.now() + ms;
    while (isAlive(pid) && Date.now() < end) await sleep(25);
    return !isAlive(pid);
  };
  treeKill(pid, 'SIGTERM');
  if (await gone(graceMs)) return;
  treeKill(pid, 'SIGKILL');
  await gone(2000);
}
