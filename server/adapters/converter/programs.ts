// The file converter's outside programs (ffmpeg/ffprobe, heif-convert, LibreOffice, Ghostscript,
// pandoc), run as short-lived child processes through runProgram (argv arrays, never a shell; the
// whole process tree killed on abort). Each run is fenced: a time limit, an address-space limit
// (`prlimit --as`, Linux) and no network (`unshare -n`, or `unshare -rn` without root, when the
// kernel allows it; probed once). A failure is a ConverterToolError with its kind; the module's
// mapper (adapter-errors/converter.ts) says it to a person. No feature logic.
import { stat } from 'node:fs/promises';
import { findProgram } from '../../platform/find-program.js';
import type { default as Sharp } from 'sharp';
import { lazyImport } from '../../platform/lazy.js';
import { runProgram } from '../../platform/sidecars/run-program.js';

export type ConverterTool = 'ffmpeg' | 'heif-convert' | 'soffice' | 'gs' | 'pandoc';

export type ConverterFailure = 'missing' | 'unreadable' | 'failed' | 'timeout' | 'aborted';

export class ConverterToolError extends Error {
  constructor(
    readonly failure: ConverterFailure,
    readonly tool: ConverterTool | 'sharp',
    message: string,
  ) {
    super(message);
    this.name = 'ConverterToolError';
  }
}

export interface ConverterPrograms {
  ffmpeg: string | null;
  ffprobe: string | null;
  'heif-convert': string | null;
  soffice: string | null;
  gs: string | null;
  pandoc: string | null;
  /** Linux's prlimit (util-linux): the address-space limit. */
  prlimit: string | null;
  /** Linux's unshare (util-linux): no network for the tool. */
  unshare: string | null;
}

/** Finds the programs on the search path (config.searchPath). */
export function findConverterPrograms(searchPath: string[], platform: NodeJS.Platform = process.platform): ConverterPrograms {
  const find = (...names: string[]) => findProgram(names, searchPath, platform);
  const linux = platform === 'linux';
  return {
    ffmpeg: find('ffmpeg'),
    ffprobe: find('ffprobe'),
    'heif-convert': find('heif-convert'),
    soffice: find('soffice', 'libreoffice'),
    gs: find('gs', 'gswin64c'),
    pandoc: find('pandoc'),
    prlimit: linux ? find('prlimit') : null,
    unshare: linux ? find('unshare') : null,
  };
}

/** Whether a tool can run here (ffmpeg needs ffprobe beside it for the duration). */
export function hasTool(programs: ConverterPrograms, tool: ConverterTool): boolean {
  return tool === 'ffmpeg' ? programs.ffmpeg !== null && programs.ffprobe !== null : programs[tool] !== null;
}

export interface ToolRun {
  /** The program (ffprobe counts as ffmpeg's in errors). */
  tool: ConverterTool | 'ffprobe';
  args: string[];
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Address-space cap in bytes (prlimit --as), where prlimit exists. */
  memoryBytes: number;
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  env?: Record<string, string>;
}

/** How the tools are fenced here: the argv prefix, found once. */
export class ToolFence {
  private network: Promise<string[]> | null = null;

  constructor(private readonly programs: ConverterPrograms) {}

  /** `unshare -n` (root) or `unshare -rn` (user namespaces), whichever runs here; [] when neither does. */
  noNetwork(): Promise<string[]> {
    const unshare = this.programs.unshare;
    if (!unshare) return Promise.resolve([]);
    return (this.network ??= (async () => {
      for (const flags of [['-n'], ['-rn']]) {
        const r = await runProgram({ command: unshare, args: [...flags, '--', 'true'] });
        if (r.code === 0) return [unshare, ...flags, '--'];
      }
      return [];
    })());
  }

  /** Whether tools run without network here (said in the admin's presets answer and the docs). */
  async isolated(): Promise<boolean> {
    return (await this.noNetwork()).length > 0;
  }

  async run(run: ToolRun): Promise<void> {
    const program = this.programs[run.tool];
    const tool: ConverterTool = run.tool === 'ffprobe' ? 'ffmpeg' : run.tool;
    if (!program) throw new ConverterToolError('missing', tool, `${run.tool} is not installed`);
    const memory = this.programs.prlimit ? [this.programs.prlimit, `--as=${run.memoryBytes}`, '--'] : [];
    const argv = [...memory, ...(await this.noNetwork()), program, ...run.args];
    const timeout = AbortSignal.timeout(run.timeoutMs);
    const signal = AbortSignal.any([run.signal, timeout]);
    const stderr: string[] = [];
    const r = await runProgram({
      command: argv[0]!,
      args: argv.slice(1),
      cwd: run.cwd,
      env: run.env,
      signal,
      killGraceMs: 2000,
      onLine: (line, stream) => {
        if (stream === 'stderr' && stderr.length < 20) stderr.push(line);
        run.onLine?.(line, stream);
      },
    });
    if (r.aborted) {
      if (run.signal.aborted) throw new ConverterToolError('aborted', tool, 'stopped');
      throw new ConverterToolError('timeout', tool, `${run.tool} ran past ${run.timeoutMs} ms`);
    }
    if (r.spawnError) throw new ConverterToolError('missing', tool, r.spawnError);
    if (r.code !== 0) throw new ConverterToolError('unreadable', tool, `${run.tool} exited ${r.code ?? r.signal}: ${stderr.slice(-3).join(' | ')}`);
  }
}

/** What ffprobe says of a media file: its length and whether it has pictures and sound. */
export interface MediaFacts {
  durationSeconds: number | null;
  video: boolean;
  audio: boolean;
}

/** ffprobe's facts of a media file; unreadable when it has no stream of the kind `need` names. */
export async function probeMedia(fence: ToolFence, input: string, cwd: string, signal: AbortSignal, need: 'video' | 'audio'): Promise<MediaFacts> {
  const out: string[] = [];
  await fence
    .run({
      tool: 'ffprobe',
      args: ['-v', 'error', '-protocol_whitelist', 'file,pipe', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', input],
      cwd,
      signal,
      timeoutMs: 60_000,
      memoryBytes: 1024 ** 3,
      onLine: (line, stream) => stream === 'stdout' && out.push(line),
    })
    .catch((err: unknown) => {
      throw err instanceof ConverterToolError && err.failure === 'unreadable' ? new ConverterToolError('unreadable', 'ffmpeg', 'ffprobe could not read the file') : err;
    });
  let parsed: { format?: { duration?: string }; streams?: Array<{ codec_type?: string }> };
  try {
    parsed = JSON.parse(out.join('\n')) as typeof parsed;
  } catch {
    throw new ConverterToolError('unreadable', 'ffmpeg', 'ffprobe answered something unreadable');
  }
  const duration = Number(parsed.format?.duration);
  const types = new Set((parsed.streams ?? []).map((s) => s.codec_type));
  const facts = { durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null, video: types.has('video'), audio: types.has('audio') };
  if (!facts[need]) throw new ConverterToolError('unreadable', 'ffmpeg', `the file has no ${need} stream`);
  return facts;
}

/** ffmpeg's `-progress pipe:1` blocks: the output time reached so far, in seconds, at each block's end. */
export function progressReader(onTime: (seconds: number, ended: boolean) => void): (line: string, stream: 'stdout' | 'stderr') => void {
  let outTime = 0;
  return (line, stream) => {
    if (stream !== 'stdout') return;
    const eq = line.indexOf('=');
    if (eq < 0) return;
    const key = line.slice(0, eq);
    const value = line.slice(eq + 1);
    if (key === 'out_time_us') {
      const us = Number(value);
      if (Number.isFinite(us) && us >= 0) outTime = us / 1e6;
    } else if (key === 'progress') onTime(outTime, value === 'end');
  };
}

/**
 * The size of the file a tool was to write; unreadable when it wrote none (LibreOffice and
 * Ghostscript can exit 0 having made nothing of a file they could not read).
 */
export async function producedFile(file: string, tool: ConverterTool): Promise<number> {
  try {
    const s = await stat(file);
    if (s.isFile() && s.size > 0) return s.size;
  } catch {
    // not written
  }
  throw new ConverterToolError('unreadable', tool, `${tool} wrote no output`);
}

const loadSharp = lazyImport<typeof Sharp>(() => import('sharp').then((m) => m.default));

/**
 * A picture as JPEG (EXIF orientation applied) or as WebP at most 2048 px a side, through sharp (in
 * this process, libvips' own threads; its `timeout` bounds the work). Sharp cannot read iPhone HEIC:
 * those go through heif-convert first.
 */
export async function convertPicture(input: string, output: string, format: 'jpeg' | 'webp'): Promise<number> {
  const sharp = await loadSharp();
  try {
    let img = sharp(input, { limitInputPixels: 268_402_689, failOn: 'error' }).rotate().timeout({ seconds: 120 });
    if (format === 'webp') img = img.resize({ width: 2048, height: 2048, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 });
    else img = img.jpeg({ quality: 88 });
    return (await img.toFile(output)).size;
  } catch (err) {
    throw new ConverterToolError('unreadable', 'sharp', (err as Error).message);
  }
}
