// Writes test/fixtures/python-standin.cjs out as an executable "python" (node behind a #! line) with
// its settings file beside it; see the fixture for what it implements.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const SOURCE = path.resolve(import.meta.dirname, '../fixtures/python-standin.cjs');

export interface PythonStandin {
  /** The executable to give as the engine's Python. */
  python: string;
  /** Every call made so far: [pid, args]. */
  calls(): { pid: number; args: string }[];
  set(cfg: { version?: string; venv?: 'ok' | 'fail' }): void;
}

export function makePythonStandin(dir: string, cfg: { version?: string; venv?: 'ok' | 'fail' } = {}): PythonStandin {
  const config = path.join(dir, 'python-standin.json');
  const python = path.join(dir, 'python3');
  writeFileSync(config, JSON.stringify(cfg));
  writeFileSync(python, `#!${process.execPath}\nconst CONFIG = ${JSON.stringify(config)};\n${readFileSync(SOURCE, 'utf8')}`);
  chmodSync(python, 0o755);
  return {
    python,
    calls() {
      let text: string;
      try {
        text = readFileSync(path.join(dir, 'calls.log'), 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => ({ pid: Number(l.slice(0, l.indexOf(' '))), args: l.slice(l.indexOf(' ') + 1) }));
    },
    set(next) {
      writeFileSync(config, JSON.stringify(next));
    },
  };
}
