// The desktop host's log: the server's console output plus the host's own lines, in a file that
// rotates by size (server.log, server.log.1 … server.log.N). It lives in Electron's logs folder, not
// the data folder, so a data folder that cannot be opened still leaves a log to read.
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface LogSink {
  readonly file: string;
  write(text: string): void;
}

export class RotatingLog implements LogSink {
  private fd: number | null = null;
  private size = 0;

  constructor(
    readonly file: string,
    private readonly opts: { maxBytes?: number; keep?: number } = {},
  ) {}

  private get maxBytes() {
    return this.opts.maxBytes ?? 5 * 1024 * 1024;
  }

  private get keep() {
    return this.opts.keep ?? 3;
  }

  private open(): number {
    if (this.fd === null) {
      mkdirSync(path.dirname(this.file), { recursive: true });
      this.fd = openSync(this.file, 'a');
      this.size = statSync(this.file).size;
    }
    return this.fd;
  }

  private rotate(): void {
    this.close();
    rmSync(`${this.file}.${this.keep}`, { force: true });
    for (let n = this.keep - 1; n >= 1; n--) {
      try {
        renameSync(`${this.file}.${n}`, `${this.file}.${n + 1}`);
      } catch {
        // that generation does not exist yet
      }
    }
    renameSync(this.file, `${this.file}.1`);
  }

  write(text: string): void {
    // a log that cannot be written must never take the tray down with it
    try {
      const bytes = Buffer.from(text);
      this.open();
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
      writeSync(this.open(), bytes);
      this.size += bytes.length;
    } catch {
      this.close();
    }
  }

  close(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = null;
    }
  }
}
