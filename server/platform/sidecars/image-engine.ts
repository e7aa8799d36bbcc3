// The image engine (the household's ComfyUI install) as a supervised sidecar: `<python> main.py`
// in its folder on 127.0.0.1 with the hardware-fit flags (image-engine-flags.ts, which add
// `--preview-method auto`), a probe of GET /system_stats (the engine answers it only once its
// nodes are loaded), a 3-minute readiness deadline (first start loads custom node packs), and a
// restart after any crash. Its stdout and stderr go to a log file of their own under
// DATA_DIR/logs, rotated by size, so the admin page can show the newest lines.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { imageEngineArgv, type ImageEngineLaunch } from '../image-engine-flags.js';
import type { Logger } from '../logger.js';
import type { SidecarDefinition } from './supervisor.js';

export interface ImageEngineSidecarConfig {
  /** The ComfyUI folder (holds main.py). */
  dir: string;
  /** Its Python (a venv's python, or python3). */
  python: string;
  launch: ImageEngineLaunch;
}

export const IMAGE_ENGINE_LOG_MAX_BYTES = 2 * 1024 * 1024;

/** A log file of lines, moved to `<file>.1` when it passes maxBytes (one older file kept). */
export class RotatingLineLog {
  constructor(
    readonly file: string,
    private readonly maxBytes = IMAGE_ENGINE_LOG_MAX_BYTES,
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
  }

  write(line: string): void {
    try {
      if (existsSync(this.file) && statSync(this.file).size >= this.maxBytes) renameSync(this.file, `${this.file}.1`);
      appendFileSync(this.file, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // a full disk must not stop the engine; the line is lost
    }
  }

  /** The newest `lines` lines (from the older file too when the current one is short). */
  tail(lines: number): string[] {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter((l) => l !== '') : []);
    const current = read(this.file);
    const all = current.length >= lines ? current : [...read(`${this.file}.1`), ...current];
    return all.slice(-lines);
  }

  /** A Logger whose lines land in this file (what the supervisor pipes the engine's output into). */
  asLogger(): Logger {
    const fn = (msgOrObj: string | Record<string, unknown>, msg?: string) => this.write(typeof msgOrObj === 'string' ? msgOrObj : `${msg ?? ''} ${JSON.stringify(msgOrObj)}`.trim());
    const logger: Logger = { fatal: fn, error: fn, warn: fn, info: fn, debug: fn, trace: fn, child: () => logger, flush: () => undefined };
    return logger;
  }
}

export function imageEngineDefinition(opts: {
  port: number;
  probe: (signal: AbortSignal) => Promise<boolean>;
  readinessTimeoutMs: number;
  pidFile?: string;
  healthIntervalMs?: number;
  pollIntervalMs?: number;
}): SidecarDefinition<ImageEngineSidecarConfig> {
  return {
    name: 'image-engine',
    launch(config) {
      if (!existsSync(path.join(config.dir, 'main.py'))) {
        return { error: `The picture engine folder ${config.dir} has no main.py. An admin can choose the ComfyUI folder on the Picture engine admin page.` };
      }
      return {
        command: config.python,
        args: ['main.py', ...imageEngineArgv(config.launch, { port: opts.port })],
        env: { ...config.launch.env },
        cwd: config.dir,
      };
    },
    probe: opts.probe,
    readinessTimeoutMs: opts.readinessTimeoutMs,
    pollIntervalMs: opts.pollIntervalMs ?? 500,
    healthIntervalMs: opts.healthIntervalMs ?? 15_000,
    // a long job keeps the engine busy, but /system_stats still answers; six misses in a row is a hang
    hangAfterFailures: 6,
    stopGraceMs: 5000,
    restartOn: 'any',
    maxRestarts: 5,
    port: opts.port,
    pidFile: opts.pidFile,
    startRetries: 1,
  };
}
