// Runs the Hearth server (dist/server/entry.js) in an Electron utilityProcess so SQLite and parsing
// never freeze the tray and windows, and waits for its {type:'ready', port} message.
import { utilityProcess, type UtilityProcess } from 'electron';

export interface ServerHostOptions {
  entry: string;
  env: Record<string, string>;
  readyTimeoutMs?: number;
  onLog?: (line: string) => void;
}

export interface RunningServer {
  port: number;
  urls: string[];
  child: UtilityProcess;
  stop(): Promise<void>;
}

export function startServerProcess(opts: ServerHostOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = utilityProcess.fork(opts.entry, [], { env: { ...opts.env }, stdio: 'pipe', serviceName: 'Hearth server' });
    const onData = (chunk: Buffer) => opts.onLog?.(chunk.toString());
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The Hearth server did not report ready within ${(opts.readyTimeoutMs ?? 30_000) / 1000} s.`));
    }, opts.readyTimeoutMs ?? 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The Hearth server exited during start-up (code ${code}).`));
    });
    child.on('message', (msg: { type?: string; port?: number; urls?: string[] }) => {
      if (msg?.type !== 'ready' || typeof msg.port !== 'number') return;
      clearTimeout(timer);
      resolve({
        port: msg.port,
        urls: msg.urls ?? [],
        child,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            // SIGTERM lets the server stop its sidecars and close SQLite.
            child.kill();
          }),
      });
    });
  });
}
