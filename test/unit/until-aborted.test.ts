import { describe, expect, it, vi } from 'vitest';
import { untilAborted } from '../../server/platform/until-aborted.js';

const never = () => new Promise<never>(() => {});

describe('untilAborted', () => {
  it('answers with the work when it resolves first, and stops listening to the signal', async () => {
    const ac = new AbortController();
    const remove = vi.spyOn(ac.signal, 'removeEventListener');
    await expect(untilAborted(Promise.resolve(7), ac.signal)).resolves.toBe(7);
    expect(remove).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('passes on the work’s own failure when it rejects first', async () => {
    const ac = new AbortController();
    await expect(untilAborted(Promise.reject(new Error('boom')), ac.signal)).rejects.toThrow('boom');
  });

  it('without a signal is just the work', async () => {
    await expect(untilAborted(() => Promise.resolve('x'), undefined)).resolves.toBe('x');
  });

  it('rejects at once with the signal’s reason when aborted before, without starting a function', async () => {
    const ac = new AbortController();
    const why = new Error('cancelled');
    ac.abort(why);
    const step = vi.fn(() => Promise.resolve(1));
    await expect(untilAborted(step, ac.signal)).rejects.toBe(why);
    expect(step).not.toHaveBeenCalled();
  });

  it('maps the reason when told how', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(untilAborted(Promise.resolve(1), ac.signal, () => new Error('mine'))).rejects.toThrow('mine');
  });

  it('stops waiting for work that never settles when the signal aborts during it', async () => {
    const ac = new AbortController();
    const waiting = untilAborted(never(), ac.signal);
    const why = new Error('stopped');
    setTimeout(() => ac.abort(why), 5);
    await expect(waiting).rejects.toBe(why);
  });

  it('swallows a later failure of the work it no longer waits for', async () => {
    const ac = new AbortController();
    let fail!: (e: Error) => void;
    const work = new Promise<never>((_r, reject) => (fail = reject));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const waiting = untilAborted(work, ac.signal);
      ac.abort(new Error('stopped'));
      await expect(waiting).rejects.toThrow('stopped');
      fail(new Error('late'));
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
