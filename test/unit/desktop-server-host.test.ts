// The desktop's server host against a fake utilityProcess: ready handshake, deadline, logs,
// crash restarts with backoff, giving up, and stopping by message before killing.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerHost, ServerStartError, type ServerChild, type ServerHostOptions, type ServerSnapshot } from '../../main/server-host.js';

class FakeChild extends EventEmitter implements ServerChild {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly posted: unknown[] = [];
  kills = 0;
  exitCode: number | null = null;
  /** What the fake server does when asked to stop. */
  onStopMessage: 'exit' | 'ignore' = 'exit';

  constructor(
    readonly entry: string,
    readonly args: string[],
    readonly pid: number,
  ) {
    super();
  }

  postMessage(message: unknown): void {
    this.posted.push(message);
    if ((message as { type?: string }).type === 'stop' && this.onStopMessage === 'exit') setTimeout(() => this.exit(0), 10);
  }

  kill(): boolean {
    this.kills++;
    setTimeout(() => this.exit(143), 0);
    return true;
  }

  ready(port = 8787, urls = ['http://192.168.1.20:8787']): void {
    this.emit('message', { type: 'ready', port, urls });
  }

  exit(code: number): void {
    if (this.exitCode !== null) return;
    this.exitCode = code;
    this.emit('exit', code);
  }
}

function setup(over: Partial<ServerHostOptions> = {}) {
  const children: FakeChild[] = [];
  const logged: string[] = [];
  const states: ServerSnapshot['state'][] = [];
  const gaveUp: ServerStartError[] = [];
  let dataDir = '/data/one';
  const host = new ServerHost({
    fork: (entry, args) => {
      const child = new FakeChild(entry, args, 1000 + children.length);
      children.push(child);
      return child;
    },
    entry: '/app/dist/server/entry.js',
    args: () => ['--data-dir', dataDir],
    log: { file: '/logs/server.log', write: (t) => logged.push(t) },
    readyTimeoutMs: 5_000,
    stopTimeoutMs: 2_000,
    backoffMs: [1_000, 2_000, 5_000],
    stableAfterMs: 60_000,
    onChange: (s) => {
      if (states.at(-1) !== s.state) states.push(s.state);
    },
    onGiveUp: (err) => gaveUp.push(err),
    ...over,
  });
  return {
    host,
    children,
    logged,
    states,
    gaveUp,
    setDataDir: (d: string) => (dataDir = d),
    last: () => children.at(-1)!,
  };
}

/** Lets exit handlers (promise callbacks) and zero-delay timers run. */
const tick = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ServerHost start', () => {
  it('forks the entry with the config, pipes output to the log and resolves on the ready message', async () => {
    const t = setup();
    const started = t.host.start();
    const child = t.last();
    expect(child.entry).toBe('/app/dist/server/entry.js');
    expect(child.args).toEqual(['--data-dir', '/data/one']);
    child.stdout.write('12:00:01 info  migrations done\n');
    child.stderr.write('warning: something\n');
    child.emit('message', { type: 'progress' });
    child.emit('message', { type: 'ready', port: 'soon' });
    expect(t.host.snapshot.state).toBe('starting');
    child.ready(8787, ['http://192.168.1.20:8787']);
    await expect(started).resolves.toEqual({ port: 8787, urls: ['http://192.168.1.20:8787'] });
    expect(t.host.snapshot).toMatchObject({ state: 'running', port: 8787, urls: ['http://192.168.1.20:8787'], pid: 1000, error: null });
    expect(t.logged.join('')).toContain('migrations done');
    expect(t.logged.join('')).toContain('warning: something');
    expect(t.states).toEqual(['starting', 'running']);
  });

  it('answers a second start while running without forking again', async () => {
    const t = setup();
    const first = t.host.start();
    t.last().ready();
    await first;
    await expect(t.host.start()).resolves.toMatchObject({ port: 8787 });
    expect(t.children).toHaveLength(1);
  });

  it('rejects with an error naming the log file and the last lines when the server exits before ready', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().stderr.write("Hearth's configuration is not valid:\n  port: Too big\n");
    t.last().exit(2);
    const err = (await started.catch((e: unknown) => e)) as ServerStartError;
    expect(err).toBeInstanceOf(ServerStartError);
    expect(err.reason).toMatch(/refused its configuration \(exit code 2\)/);
    expect(err.logFile).toBe('/logs/server.log');
    expect(err.message).toContain('The log is in /logs/server.log');
    expect(err.tail).toEqual(["Hearth's configuration is not valid:", '  port: Too big']);
    expect(t.host.snapshot).toMatchObject({ state: 'failed', error: err.reason, port: null });
    // a failed first start is the user's to retry, not a crash loop
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.children).toHaveLength(1);
  });

  it('kills a server that does not report ready within the deadline', async () => {
    const t = setup();
    const started = t.host.start().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    const err = (await started) as ServerStartError;
    expect(err.reason).toMatch(/did not finish starting within 5 seconds/);
    expect(t.last().kills).toBe(1);
    expect(t.host.snapshot.state).toBe('failed');
  });

  it('reports a fork that throws (missing entry) as a start error', async () => {
    const t = setup({
      fork: () => {
        throw new Error('ENOENT: entry.js');
      },
    });
    await expect(t.host.start()).rejects.toMatchObject({ reason: expect.stringMatching(/could not be started: ENOENT/) });
    expect(t.host.snapshot.state).toBe('failed');
  });
});

describe('ServerHost crash restarts', () => {
  it('restarts a crashed server after the first backoff step, with the current arguments', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.setDataDir('/data/two');
    t.last().exit(1);
    await tick();
    expect(t.host.snapshot).toMatchObject({ state: 'restarting', restarts: 1, port: null, error: expect.stringMatching(/stopped unexpectedly \(exit code 1\)/) });
    await vi.advanceTimersByTimeAsync(999);
    expect(t.children).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.children).toHaveLength(2);
    expect(t.last().args).toEqual(['--data-dir', '/data/two']);
    t.last().ready(8787);
    await tick();
    expect(t.host.snapshot).toMatchObject({ state: 'running', pid: 1001, error: null });
    expect(t.states).toEqual(['starting', 'running', 'restarting', 'running']);
  });

  it('backs off 1 s, 2 s, 5 s across consecutive crashes, then gives up', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.last().exit(1); // crash while running
    await vi.advanceTimersByTimeAsync(1_000);
    t.last().exit(1); // restart attempt dies before ready
    await vi.advanceTimersByTimeAsync(1_999);
    expect(t.children).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.children).toHaveLength(3);
    t.last().exit(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(t.children).toHaveLength(4);
    t.last().stderr.write('Error: SQLITE_CORRUPT\n');
    t.last().exit(1);
    await tick();
    expect(t.host.snapshot.state).toBe('failed');
    expect(t.gaveUp).toHaveLength(1);
    expect(t.gaveUp[0]!.message).toMatch(/restarted 3 times and kept stopping/);
    expect(t.gaveUp[0]!.tail).toContain('Error: SQLITE_CORRUPT');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(t.children).toHaveLength(4);
  });

  it('starts the backoff over once a restarted server stayed up', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.last().exit(1);
    await vi.advanceTimersByTimeAsync(1_000);
    t.last().ready();
    await vi.advanceTimersByTimeAsync(60_000); // stable
    t.last().exit(1);
    await vi.advanceTimersByTimeAsync(1_000); // the first step again, not 2 s
    expect(t.children).toHaveLength(3);
  });

  it('start() after giving up tries again from a clean slate', async () => {
    const t = setup({ backoffMs: [] });
    const started = t.host.start();
    t.last().ready();
    await started;
    t.last().exit(1);
    await tick();
    expect(t.host.snapshot.state).toBe('failed');
    const again = t.host.start();
    t.last().ready();
    await expect(again).resolves.toMatchObject({ port: 8787 });
    expect(t.host.snapshot.state).toBe('running');
  });
});

describe('ServerHost stop', () => {
  it('asks the server to stop and waits for it, without killing it', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    const stopped = t.host.stop();
    await vi.advanceTimersByTimeAsync(10);
    await stopped;
    expect(t.last().posted).toEqual([{ type: 'stop' }]);
    expect(t.last().kills).toBe(0);
    expect(t.host.snapshot).toMatchObject({ state: 'stopped', port: null, pid: null });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.children).toHaveLength(1); // a requested exit is not a crash
  });

  it('kills a server that ignores the stop message after the grace period', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.last().onStopMessage = 'ignore';
    const stopped = t.host.stop();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(t.last().kills).toBe(0);
    await vi.advanceTimersByTimeAsync(10);
    await stopped;
    expect(t.last().kills).toBe(1);
    expect(t.host.snapshot.state).toBe('stopped');
    expect(t.logged.join('')).toMatch(/did not stop in time; killing it/);
  });

  it('cancels a pending crash restart', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.last().exit(1);
    await tick();
    await t.host.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.children).toHaveLength(1);
    expect(t.host.snapshot.state).toBe('stopped');
  });

  it('kills a server that is still starting (it has no stop channel yet) and leaves the state stopped', async () => {
    const t = setup();
    const started = t.host.start().catch((e: unknown) => e);
    const stopped = t.host.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
    expect(t.last().posted).toEqual([]);
    expect(t.last().kills).toBe(1);
    expect(await started).toBeInstanceOf(ServerStartError);
    expect(t.host.snapshot.state).toBe('stopped');
  });

  it('restart() stops the running server and starts a new one', async () => {
    const t = setup();
    const started = t.host.start();
    t.last().ready();
    await started;
    t.setDataDir('/mnt/big/Hearth');
    const restarted = t.host.restart();
    await vi.advanceTimersByTimeAsync(10);
    expect(t.children).toHaveLength(2);
    expect(t.last().args).toEqual(['--data-dir', '/mnt/big/Hearth']);
    t.last().ready(8787);
    await expect(restarted).resolves.toMatchObject({ port: 8787 });
  });
});
