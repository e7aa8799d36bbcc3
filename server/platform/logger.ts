// Structured logging: JSON lines to <dataDir>/logs/hearth.log, short text lines to the console.
// Tests use createMemoryLogger() and assert on the kept lines. Never log tokens or PINs.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
type LogFn = (msgOrObj: string | Record<string, unknown>, msg?: string) => void;

export interface Logger {
  fatal: LogFn;
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
  trace: LogFn;
  /** A logger whose lines carry `scope` (e.g. 'auth', 'archive-server'). */
  child(scope: string): Logger;
  /** Flushes buffered file output; call before exit. */
  flush(): void;
}

const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function wrap(p: pino.Logger): Logger {
  const fn =
    (level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'): LogFn =>
    (a, b) => {
      if (typeof a === 'string') p[level](a);
      else p[level](a, b);
    };
  return {
    fatal: fn('fatal'),
    error: fn('error'),
    warn: fn('warn'),
    info: fn('info'),
    debug: fn('debug'),
    trace: fn('trace'),
    child: (scope) => wrap(p.child({ scope })),
    flush: () => p.flush(),
  };
}

/**
 * `err` fields: a refusal by design (an AppError below 500, or an error marked `expected`, such
 * as a URL the SSRF guard refused or offline mode) is logged as its name, code and message; a
 * stack is kept for the unexpected, where it helps.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const e = err as Error & { status?: unknown; code?: unknown; expected?: unknown };
  if (e.expected === true || (typeof e.status === 'number' && e.status < 500)) {
    return { type: e.name, ...(typeof e.code === 'string' ? { code: e.code } : {}), message: e.message };
  }
  return pino.stdSerializers.err(err);
}

const SERIALIZERS = { err: serializeError };

/**
 * A message with every URL in it replaced by `<url>`. Log lines name things by id (a Reader item,
 * a device): what a member reads, saves or searches for never reaches hearth.log, and error
 * messages of fetches and browsers carry the address they failed on.
 */
export function withoutUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, '<url>');
}

/** Renders a JSON log line as `12:00:01 info [scope] message key=value`. */
export function formatConsoleLine(line: string): string {
  try {
    const { level, time, scope, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(line) as Record<string, unknown>;
    const t = new Date(typeof time === 'number' ? time : Date.now()).toISOString().slice(11, 19);
    const extras = Object.entries(rest)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
    const lvl = LEVEL_NAMES[level as number] ?? String(level);
    return `${t} ${lvl.padEnd(5)} ${scope ? `[${String(scope)}] ` : ''}${String(msg ?? '')}${extras ? ` ${extras}` : ''}\n`;
  } catch {
    return line;
  }
}

export function createLogger(opts: { level: LogLevel; dir?: string; console?: boolean }): Logger {
  const streams: pino.StreamEntry[] = [];
  if (opts.dir) {
    mkdirSync(opts.dir, { recursive: true });
    streams.push({ level: 'trace', stream: pino.destination({ dest: path.join(opts.dir, 'hearth.log'), mkdir: true, sync: false }) });
  }
  if (opts.console !== false) {
    streams.push({
      level: 'trace',
      stream: new Writable({
        write(chunk: Buffer, _enc, cb) {
          process.stdout.write(formatConsoleLine(chunk.toString()));
          cb();
        },
      }),
    });
  }
  const p = pino({ level: opts.level, base: undefined, serializers: SERIALIZERS, redact: ['token', 'pin', 'cookie', '*.token', '*.pin'] }, pino.multistream(streams));
  return wrap(p);
}

export interface MemoryLogger extends Logger {
  lines: Array<Record<string, unknown>>;
}

/** A logger that keeps its lines in memory (tests), optionally echoing nothing. */
export function createMemoryLogger(level: LogLevel = 'debug'): MemoryLogger {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const logger = wrap(pino({ level, base: undefined, serializers: SERIALIZERS }, stream));
  return Object.assign(logger, { lines });
}
