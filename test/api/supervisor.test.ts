import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { ProcessSupervisor, type SidecarState } from '../../server/platform/sidecars/supervisor.js';
import { freePort, until } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { alive } from '../harness/processes.js';

const waitUntil = (fn: () => boolean, ms = 10_000) => until(fn, 'the supervisor', ms);

const script = path.resolve(import.meta.dirname, '../fixtures/fake-sidecar.mjs');


interface Cfg {
  mode: string;
  after?: number;
}

let sup: ProcessSupervisor<Cfg> | null = null;
afterEach(async () => {
  await sup?.stop();
  sup = null;
});

async function make(port: number, opts: Partial<ConstructorParameters<typeof ProcessSupervisor<Cfg>>[0]> = {}) {
  const logger = createMemoryLogger();
  const states: SidecarState[] = [];
  sup = new ProcessSupervisor<Cfg>(
    {
      name: 'fake',
      launch: (c) => ({ command: process.execPath, args: [script, String(port), c.mode, String(c.after ?? 300)] }),
      probe: async (signal) => (await fetch(`http://127.0.0.1:${port}/health`, { signal })).ok,
      readinessTimeoutMs: 3000,
      pollIntervalMs: 20,
      healthIntervalMs: 100,
      hangAfterFailures: 2,
      stopGraceMs: 300,
      restartOn: [139, 135],
      ...opts,
    },
    logger,
  );
  sup.onChange((s) => states.push(s.state));
  return { sup, logger, states };
}

describe('ProcessSupervisor', () => {
  it('starts, reports ready after the probe answers, pipes output, and stops with tree-kill', async () => {
    const port = await freePort();
    const { sup, logger, states } = await make(port);
    await sup.apply({ mode: 'ok' });
    expect(sup.status().state).toBe('ready');
    const pid = sup.status().pid!;
    expect(alive(pid)).toBe(true);
    await waitUntil(() => logger.lines.some((l) => l.msg === `listening on ${port}`));
    await sup.stop();
    expect(states).toEqual(['starting', 'ready', 'idle']);
    await waitUntil(() => !alive(pid));
  });

  it('fails clearly when the program exits at start, or never becomes ready before the deadline', async () => {
    const port = await freePort();
    const a = await make(port);
    await a.sup.apply({ mode: 'exit-at-start' });
    expect(a.sup.status()).toMatchObject({ state: 'failed', error: expect.stringContaining('exit code 1') });
    await a.sup.stop();

    const b = await make(port, { readinessTimeoutMs: 400 });
    await b.sup.apply({ mode: 'never-ready' });
    expect(b.sup.status()).toMatchObject({ state: 'failed', error: expect.stringContaining('did not become ready') });
    // the unready process was killed
    expect(b.sup.status().pid).toBeNull();
  });

  it('reports a missing program as failed without spawning', async () => {
    const port = await freePort();
    const { sup } = await make(port, { launch: () => ({ error: 'kiwix-serve is not installed.' }) });
    await sup.apply({ mode: 'ok' });
    expect(sup.status()).toMatchObject({ state: 'failed', error: 'kiwix-serve is not installed.', pid: null });
  });

  it('restarts after a crash (exit 139) with backoff', async () => {
    const port = await freePort();
    const { sup, states } = await make(port);
    await sup.apply({ mode: 'crash-after-ready', after: 200 });
    const first = sup.status().pid!;
    await waitUntil(() => sup.status().restarts >= 1 && sup.status().state === 'ready' && sup.status().pid !== first);
    const changes = states.filter((x, i) => x !== states[i - 1]);
    expect(changes.slice(0, 4)).toEqual(['starting', 'ready', 'starting', 'ready']);
  });

  it('restarts after kill -9 from outside', async () => {
    const port = await freePort();
    const { sup } = await make(port);
    await sup.apply({ mode: 'ok' });
    const first = sup.status().pid!;
    process.kill(first, 'SIGKILL');
    await waitUntil(() => sup.status().state === 'ready' && sup.status().pid !== null && sup.status().pid !== first);
  });

  it('kills a hung program that ignores SIGTERM, then starts it again', async () => {
    const port = await freePort();
    const { sup, logger } = await make(port, { restartOn: 'any' });
    await sup.apply({ mode: 'hang', after: 150 });
    const first = sup.status().pid!;
    await waitUntil(() => !alive(first), 8000);
    await waitUntil(() => sup.status().state === 'ready' && sup.status().pid !== first, 8000);
    expect(logger.lines.some((l) => String(l.msg).includes('hung'))).toBe(true);
  });

  it('serializes reconfiguration: the last configuration wins', async () => {
    const port = await freePort();
    const { sup } = await make(port);
    const calls = [sup.apply({ mode: 'ok', after: 1 }), sup.apply({ mode: 'ok', after: 2 }), sup.apply({ mode: 'ok', after: 3 })];
    await Promise.all(calls);
    expect(sup.current()).toEqual({ mode: 'ok', after: 3 });
    expect(sup.status().state).toBe('ready');
  });

  describe('start on a port another process holds', () => {
    const temp = makeTempDir();
    const pidFile = path.join(temp.dir, 'run', 'fake.pid');
    const others: ChildProcess[] = [];
    afterEach(() => {
      for (const c of others.splice(0)) c.kill('SIGKILL');
    });

    /** Reads one line from a child's stdout. */
    const firstLine = (c: ChildProcess) =>
      new Promise<string>((resolve, reject) => {
        let buf = '';
        c.stdout!.setEncoding('utf8').on('data', (d: string) => {
          buf += d;
          if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
        });
        c.once('exit', (code) => reject(new Error(`exited with ${code} before printing: ${buf}`)));
      });

    it('stops the copy a killed Hearth left running (named by the pid file) and starts its own', async () => {
      const port = await freePort();
      // a Hearth that is killed with -9 right after its sidecar came up: the sidecar lives on
      const host = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../fixtures/supervisor-host.ts'), String(port), pidFile], { stdio: ['ignore', 'pipe', 'inherit'] });
      others.push(host);
      const [state, pidText] = (await firstLine(host)).split(' ');
      expect(state).toBe('ready');
      const orphan = Number(pidText);
      host.kill('SIGKILL');
      await until(() => host.exitCode !== null || host.signalCode !== null, 'the host to die');
      expect(alive(orphan)).toBe(true);

      const { sup } = await make(port, { port, pidFile });
      await sup.apply({ mode: 'ok' });
      expect(sup.status().state).toBe('ready');
      expect(alive(orphan)).toBe(false);
      const mine = sup.status().pid!;
      expect(mine).not.toBe(orphan);
      expect(alive(mine)).toBe(true);
      await sup.stop();
      // a clean stop leaves no pid file behind
      expect(existsSync(pidFile)).toBe(false);
    });

    it('never kills a process it did not start: waits for the port, trying again with backoff, and starts once it is free', async () => {
      const port = await freePort();
      // another program on the port, which does not speak HTTP; the pid file names it, but with
      // another command line (a pid reused since Hearth wrote it)
      const holder = spawn(process.execPath, ['-e', `require('net').createServer((s) => s.destroy()).listen(${port}, '127.0.0.1', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
      others.push(holder);
      expect(await firstLine(holder)).toBe('listening');
      const { writeFileSync, mkdirSync } = await import('node:fs');
      mkdirSync(path.dirname(pidFile), { recursive: true });
      writeFileSync(pidFile, JSON.stringify({ pid: holder.pid, argv: [process.execPath, 'kiwix-serve', '-p', String(port)] }));

      const { sup, logger } = await make(port, { port, pidFile, startRetries: 4 });
      const started = sup.apply({ mode: 'ok' });
      await until(() => logger.lines.some((l) => l.msg === 'start failed; trying again'), 'a failed first attempt', 10_000);
      expect(sup.status()).toMatchObject({ state: 'starting', error: expect.stringContaining(`port ${port}`) });
      expect(alive(holder.pid!)).toBe(true);
      holder.kill('SIGKILL');
      await started;
      expect(sup.status().state).toBe('ready');
      expect(alive(sup.status().pid!)).toBe(true);
    });

    it('fails with a plain reason when the port stays taken', async () => {
      const port = await freePort();
      const holder = spawn(process.execPath, ['-e', `require('net').createServer((s) => s.destroy()).listen(${port}, '127.0.0.1', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
      others.push(holder);
      await firstLine(holder);
      const { sup } = await make(port, { port, startRetries: 0 });
      await sup.apply({ mode: 'ok' });
      expect(sup.status()).toMatchObject({ state: 'failed', error: expect.stringMatching(/port \d+ on 127\.0\.0\.1 is in use by another program/) });
      expect(alive(holder.pid!)).toBe(true);
    });
  });
});
