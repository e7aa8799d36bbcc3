// The capture browser's leftovers after a crash. Playwright gives each launched browser a fresh
// profile folder in the system temp folder (it offers no other place) and removes it on a clean
// close; kill -9 of Hearth skips that. So Hearth notes each profile it launched with in
// DATA_DIR/run/capture-browser/profiles.json, and the next start removes the ones noted: only
// one Hearth runs per DATA_DIR, so none of them is in use then. Nothing else in the temp folder
// is touched. Playwright's other temp folder (artifacts) is put in DATA_DIR/run/capture-browser/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PROFILE_PREFIX = 'playwright_chromiumdev_profile-';

export interface CaptureBrowserFiles {
  /** Playwright's artifacts folder for the capture browser (emptied at start). */
  artifactsDir: string;
  /** Notes the profile folder of the browser just launched from this process (call after launch). */
  noteLaunched(): void;
  /** Forgets a profile Playwright removed on a clean close. */
  forgetClosed(): void;
  /** At start: removes the profiles noted by an earlier run, and the artifacts. Returns what was removed. */
  sweep(): string[];
}

/** The --user-data-dir of each Chromium started by this process (Playwright starts it as a child). */
function childProfiles(): string[] {
  const out: string[] = [];
  const fromArgs = (args: string[]) => {
    for (const a of args) if (a.startsWith('--user-data-dir=')) out.push(a.slice('--user-data-dir='.length));
  };
  try {
    if (process.platform === 'linux') {
      for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
        try {
          // the command (field 2) may hold spaces and parentheses: ppid is the 2nd field after the last ')'
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          if (ppid === process.pid) fromArgs(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
        } catch {
          // gone meanwhile
        }
      }
    } else if (process.platform !== 'win32') {
      for (const line of execFileSync('ps', ['-A', '-o', 'ppid=,args='], { encoding: 'utf8' }).split('\n')) {
        const m = /^\s*(\d+)\s+(.*)$/.exec(line);
        if (m && Number(m[1]) === process.pid) fromArgs(m[2]!.split(' '));
      }
    }
  } catch {
    // no process list: nothing noted, nothing swept later
  }
  return out;
}

/** Only Playwright's own temp profiles, directly in the temp folder, are ever removed. */
const isPlaywrightProfile = (dir: string) => path.dirname(dir) === path.resolve(os.tmpdir()) && path.basename(dir).startsWith(PROFILE_PREFIX);

export function captureBrowserFiles(runDir: string, log?: { warn(o: Record<string, unknown>, m: string): void }): CaptureBrowserFiles {
  const root = path.join(runDir, 'capture-browser');
  const notes = path.join(root, 'profiles.json');
  const artifactsDir = path.join(root, 'artifacts');
  let mine: string | null = null;
  const read = (): string[] => {
    try {
      const v = JSON.parse(readFileSync(notes, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  };
  const write = (list: string[]) => {
    try {
      mkdirSync(root, { recursive: true });
      writeFileSync(notes, JSON.stringify(list));
    } catch (err) {
      log?.warn({ err: (err as Error).message }, 'could not note the capture browser profile');
    }
  };
  return {
    artifactsDir,
    noteLaunched() {
      const fresh = childProfiles().filter((d) => isPlaywrightProfile(d) && !CLAIMED.has(d));
      // two browsers launched at once from one process cannot be told apart: note neither
      if (fresh.length !== 1) return;
      mine = fresh[0]!;
      CLAIMED.add(mine);
      write([...new Set([...read(), mine])]);
    },
    forgetClosed() {
      if (!mine) return;
      CLAIMED.delete(mine);
      write(read().filter((d) => d !== mine));
      mine = null;
    },
    sweep() {
      const removed: string[] = [];
      for (const dir of read()) {
        if (!isPlaywrightProfile(dir) || CLAIMED.has(dir)) continue;
        rmSync(dir, { recursive: true, force: true });
        removed.push(dir);
      }
      rmSync(artifactsDir, { recursive: true, force: true });
      write([]);
      return removed;
    },
  };
}

// The profiles of the browsers this process runs now, whatever their data folder: tests run several
// servers in one process, and one's sweep or note must not take another's live profile.
const CLAIMED = new Set<string>();
