// A Python program's own environment (a venv) that Hearth prepares before the supervisor starts the
// program: made with the Python an admin chose, then `pip install -r` of the program's
// requirements.txt and of each plugin folder's one (<dir>/custom_nodes/*/requirements.txt for
// ComfyUI). A marker in the venv records a fingerprint of the chosen Python and of those files, so
// an unchanged install is not prepared again and a changed one (an update, a new node pack) is.
// Every program runs through runProgram (tree-kill on abort); Hearth itself fetches nothing: pip
// does, in its own process. Failures are typed (PythonEnvError); the caller words them.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runProgram } from './run-program.js';

export type PythonEnvFailure =
  | { kind: 'python_missing'; python: string; detail: string }
  | { kind: 'python_too_old'; python: string; version: string; needed: string }
  | { kind: 'venv_failed'; python: string; code: number | null }
  | { kind: 'pip_failed'; file: string; code: number | null };

export class PythonEnvError extends Error {
  constructor(readonly failure: PythonEnvFailure) {
    super(`python environment: ${failure.kind}`);
    this.name = 'PythonEnvError';
  }
}

export type PythonEnvStep =
  | { step: 'python' }
  | { step: 'venv' }
  /** `file` relative to the install folder; `index` counts from 1. */
  | { step: 'pip'; file: string; index: number; total: number };

export interface PythonEnvOptions {
  /** The venv's folder (Hearth's own, under DATA_DIR). */
  venvDir: string;
  /** The oldest Python accepted, [major, minor]. */
  minVersion: readonly [number, number];
  /** Where the programs' output goes, line by line (the engine's rotated log). */
  log: (line: string) => void;
}

export const ENV_MARKER = 'hearth-environment.json';

interface Marker {
  fingerprint: string;
  python: string;
  files: string[];
}

export class PythonEnvironment {
  constructor(private readonly o: PythonEnvOptions) {}

  /** The venv's own python, which runs the program once prepared. */
  pythonPath(): string {
    return process.platform === 'win32' ? path.join(this.o.venvDir, 'Scripts', 'python.exe') : path.join(this.o.venvDir, 'bin', 'python');
  }

  /** The install's requirement files, relative to it: requirements.txt, then each custom node pack's, by name. */
  requirementFiles(installDir: string): string[] {
    const files: string[] = [];
    if (isFile(path.join(installDir, 'requirements.txt'))) files.push('requirements.txt');
    const nodes = path.join(installDir, 'custom_nodes');
    let packs: string[] = [];
    try {
      packs = readdirSync(nodes, { withFileTypes: true })
        .filter((d) => d.isDirectory() && !d.name.startsWith('.') && d.name !== '__pycache__')
        .map((d) => d.name)
        .sort();
    } catch {
      // no custom_nodes folder: only the install's own requirements
    }
    for (const p of packs) if (isFile(path.join(nodes, p, 'requirements.txt'))) files.push(path.join('custom_nodes', p, 'requirements.txt'));
    return files;
  }

  /** A hash of the chosen Python and of every requirement file's name and bytes. */
  fingerprint(python: string, installDir: string): { fingerprint: string; files: string[] } {
    const files = this.requirementFiles(installDir);
    const h = createHash('sha256').update(`python\0${python}\0`);
    for (const f of files) h.update(`${f}\0`).update(readFileSync(path.join(installDir, f))).update('\0');
    return { fingerprint: h.digest('hex'), files };
  }

  /** The venv exists and was prepared from exactly these files with this Python. */
  isCurrent(python: string, installDir: string): boolean {
    const marker = this.readMarker();
    if (!marker || !existsSync(this.pythonPath())) return false;
    try {
      return marker.fingerprint === this.fingerprint(python, installDir).fingerprint;
    } catch {
      return false;
    }
  }

  /**
   * Checks the Python's version, makes the venv (again, when it is missing or was made by another
   * Python), installs every requirement file into it, then writes the marker. Resolves with the
   * venv's python; throws PythonEnvError, or an AbortError when `signal` aborts.
   */
  async prepare(python: string, installDir: string, opts: { signal?: AbortSignal; onStep?: (s: PythonEnvStep) => void } = {}): Promise<string> {
    const { signal } = opts;
    const run = async (command: string, args: string[], cwd?: string) => {
      const r = await runProgram({ command, args, cwd, signal, onLine: (line) => this.o.log(line) });
      if (r.aborted) signal?.throwIfAborted();
      return r;
    };
    opts.onStep?.({ step: 'python' });
    this.o.log(`Hearth checks the Python at ${python}`);
    const lines: string[] = [];
    const v = await runProgram({ command: python, args: ['--version'], signal, onLine: (l) => lines.push(l) });
    if (v.aborted) signal?.throwIfAborted();
    if (v.spawnError) throw new PythonEnvError({ kind: 'python_missing', python, detail: v.spawnError });
    const m = lines.join(' ').match(/Python (\d+)\.(\d+)(?:\.(\d+))?/);
    if (v.code !== 0 || !m) throw new PythonEnvError({ kind: 'python_missing', python, detail: lines.join(' ') || `exit code ${v.code}` });
    const [major, minor] = [Number(m[1]), Number(m[2])];
    const [needMajor, needMinor] = this.o.minVersion;
    const version = `${m[1]}.${m[2]}${m[3] ? `.${m[3]}` : ''}`;
    this.o.log(`Python ${version}`);
    if (major < needMajor || (major === needMajor && minor < needMinor)) throw new PythonEnvError({ kind: 'python_too_old', python, version, needed: `${needMajor}.${needMinor}` });

    const { fingerprint, files } = this.fingerprint(python, installDir);
    const marker = this.readMarker();
    rmSync(path.join(this.o.venvDir, ENV_MARKER), { force: true });
    if (!existsSync(this.pythonPath()) || marker?.python !== python) {
      opts.onStep?.({ step: 'venv' });
      this.o.log(`Hearth makes a Python environment in ${this.o.venvDir}`);
      rmSync(this.o.venvDir, { recursive: true, force: true });
      mkdirSync(path.dirname(this.o.venvDir), { recursive: true });
      const r = await run(python, ['-m', 'venv', this.o.venvDir]);
      if (r.spawnError || r.code !== 0 || !existsSync(this.pythonPath())) throw new PythonEnvError({ kind: 'venv_failed', python, code: r.code });
    }
    const venvPython = this.pythonPath();
    for (const [i, file] of files.entries()) {
      opts.onStep?.({ step: 'pip', file, index: i + 1, total: files.length });
      this.o.log(`Hearth installs ${file}`);
      const full = path.join(installDir, file);
      // in the file's folder, so a requirement given as a relative path resolves as its author meant
      const r = await run(venvPython, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-r', full], path.dirname(full));
      if (r.spawnError || r.code !== 0) throw new PythonEnvError({ kind: 'pip_failed', file, code: r.code });
    }
    writeFileSync(path.join(this.o.venvDir, ENV_MARKER), JSON.stringify({ fingerprint, python, files } satisfies Marker, null, 2));
    this.o.log(`Hearth prepared the Python environment (${files.length} requirement file${files.length === 1 ? '' : 's'})`);
    return venvPython;
  }

  private readMarker(): Marker | null {
    try {
      const m = JSON.parse(readFileSync(path.join(this.o.venvDir, ENV_MARKER), 'utf8')) as Partial<Marker>;
      return typeof m.fingerprint === 'string' && typeof m.python === 'string' ? { fingerprint: m.fingerprint, python: m.python, files: m.files ?? [] } : null;
    } catch {
      return null;
    }
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
