import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../server/errors.js';
import { ReplayChannel } from '../../server/http/sse.js';
import { sameModel } from '../../server/modules/models/pulls.js';
import { BootService, type BootEvent, type BootStepDefinition } from '../../server/modules/system/boot-service.js';
import { createMemoryLogger } from '../../server/platform/logger.js';

describe('sameModel', () => {
  it.each([
    ['llama3.2', 'llama3.2:latest', true],
    ['llama3.2:latest', 'llama3.2', true],
    ['llama3.2', 'llama3.2', true],
    ['llama3.2:3b', 'llama3.2:3b', true],
    ['llama3.2:3b', 'llama3.2', false],
    ['llama3.2:3b', 'llama3.2:1b', false],
    ['llama3', 'llama3.2', false],
  ])('%s vs %s -> %s', (a, b, expected) => {
    expect(sameModel(a, b)).toBe(expected);
  });
});

describe('BootService', () => {
  const service = (steps: BootStepDefinition[]) => {
    const channel = new ReplayChannel<BootEvent>();
    return { channel, boot: new BootService({ channel, logger: createMemoryLogger(), steps }) };
  };

  it('runs steps in order, running then result, then done and the end', async () => {
    const order: string[] = [];
    const { channel, boot } = service([
      { key: 'a', label: 'A', run: async () => (order.push('a'), { status: 'ok', detail: 'fine' }) },
      { key: 'b', label: 'B', run: async () => (order.push('b'), { status: 'warn', detail: 'meh' }) },
    ]);
    await boot.start();
    expect(order).toEqual(['a', 'b']);
    expect(channel.events().map((e) => [e.event, (e.data as { key?: string; status?: string }).key, (e.data as { status?: string }).status])).toEqual([
      ['step', 'a', 'running'],
      ['step', 'a', 'ok'],
      ['step', 'b', 'running'],
      ['step', 'b', 'warn'],
      ['done', undefined, undefined],
    ]);
    expect(channel.isEnded).toBe(true);
    expect(boot.isDone).toBe(true);
  });

  it('reports a throwing step as error and goes on; only an AppError\'s sentence reaches the (public) stream', async () => {
    const { boot } = service([
      { key: 'bad', label: 'Bad', run: async () => Promise.reject(new Error('ENOENT: /home/alex/secret.db')) },
      { key: 'told', label: 'Told', run: async () => Promise.reject(new ServiceUnavailableError('runtime_down', 'The model runtime is not running.')) },
      { key: 'good', label: 'Good', run: async () => ({ status: 'ok', detail: '' }) },
    ]);
    await boot.start();
    expect(boot.steps()).toEqual([
      { key: 'bad', label: 'Bad', status: 'error', detail: "This check failed unexpectedly. The details are in Hearth's log." },
      { key: 'told', label: 'Told', status: 'error', detail: 'The model runtime is not running.' },
      { key: 'good', label: 'Good', status: 'ok', detail: '' },
    ]);
  });

  it('start() twice runs the steps once', async () => {
    let runs = 0;
    const { boot } = service([{ key: 'a', label: 'A', run: async () => (runs++, { status: 'ok', detail: '' }) }]);
    await Promise.all([boot.start(), boot.start()]);
    expect(runs).toBe(1);
  });

  it('stop() returns promptly while a step ignores its signal, runs nothing further, and ends the channel', async () => {
    let laterRan = false;
    const { channel, boot } = service([
      { key: 'stuck', label: 'Stuck', run: () => new Promise(() => {}) },
      { key: 'later', label: 'Later', run: async () => ((laterRan = true), { status: 'ok', detail: '' }) },
    ]);
    void boot.start();
    await new Promise((r) => setTimeout(r, 5));
    const stopped = await Promise.race([boot.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('hung'), 1000))]);
    expect(stopped).toBe('stopped');
    expect(laterRan).toBe(false);
    expect(boot.isDone).toBe(false);
    expect(channel.isEnded).toBe(true);
    expect(channel.events().some((e) => e.event === 'done')).toBe(false);
  });

  it('passes its abort signal to the running step', async () => {
    let seen: AbortSignal | undefined;
    const { boot } = service([
      {
        key: 'waits',
        label: 'Waits',
        run: ({ signal }) => {
          seen = signal;
          return new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
        },
      },
    ]);
    void boot.start();
    await new Promise((r) => setTimeout(r, 5));
    await boot.stop();
    expect(seen?.aborted).toBe(true);
  });
});
