import { describe, expect, it } from 'vitest';
import { ReplayChannel, type ChannelEvent } from '../../server/http/sse.js';

function recorder() {
  const seen: Array<ChannelEvent | 'end'> = [];
  return { seen, sub: { onEvent: (e: ChannelEvent) => seen.push(e), onEnd: () => seen.push('end') } };
}

describe('ReplayChannel', () => {
  it('replays past events to a new subscriber, then follows live ones', () => {
    const ch = new ReplayChannel();
    ch.publish('step', { n: 1 });
    ch.publish('step', { n: 2 });
    const r = recorder();
    ch.subscribe(r.sub);
    expect(r.seen).toEqual([
      { event: 'step', data: { n: 1 } },
      { event: 'step', data: { n: 2 } },
    ]);
    ch.publish('step', { n: 3 });
    expect(r.seen.at(-1)).toEqual({ event: 'step', data: { n: 3 } });
    expect(r.seen).toHaveLength(3);
  });

  it('tells live subscribers when it ends, after the last event', () => {
    const ch = new ReplayChannel();
    const r = recorder();
    ch.subscribe(r.sub);
    ch.publish('done', {});
    ch.end();
    expect(r.seen).toEqual([{ event: 'done', data: {} }, 'end']);
    expect(ch.isEnded).toBe(true);
  });

  it('gives a late subscriber the whole history and then the end at once', () => {
    const ch = new ReplayChannel();
    ch.publish('a', 1);
    ch.publish('b', 2);
    ch.end();
    const r = recorder();
    ch.subscribe(r.sub);
    expect(r.seen).toEqual([{ event: 'a', data: 1 }, { event: 'b', data: 2 }, 'end']);
  });

  it('ignores events after the end, and a second end', () => {
    const ch = new ReplayChannel();
    const r = recorder();
    ch.subscribe(r.sub);
    ch.end();
    ch.publish('late', 1);
    ch.end();
    expect(r.seen).toEqual(['end']);
    expect(ch.events()).toEqual([]);
  });

  it('stops delivering to a subscriber that unsubscribed', () => {
    const ch = new ReplayChannel();
    const a = recorder();
    const b = recorder();
    const unsubscribe = ch.subscribe(a.sub);
    ch.subscribe(b.sub);
    ch.publish('x', 1);
    unsubscribe();
    ch.publish('y', 2);
    ch.end();
    expect(a.seen).toEqual([{ event: 'x', data: 1 }]);
    expect(b.seen).toEqual([{ event: 'x', data: 1 }, { event: 'y', data: 2 }, 'end']);
  });

  it('pipes into a stream and closes it at the end; unsubscribes when the stream aborts', () => {
    const ch = new ReplayChannel();
    ch.publish('first', 1);
    const sent: Array<[string, unknown]> = [];
    let closed = 0;
    const controller = new AbortController();
    ch.pipeTo({ send: (e, d) => sent.push([e, d]), close: () => closed++, signal: controller.signal });
    ch.publish('second', 2);
    expect(sent).toEqual([['first', 1], ['second', 2]]);

    const gone: Array<[string, unknown]> = [];
    const c2 = new AbortController();
    ch.pipeTo({ send: (e, d) => gone.push([e, d]), close: () => {}, signal: c2.signal });
    c2.abort(); // the client went away
    ch.publish('third', 3);
    expect(gone).toEqual([['first', 1], ['second', 2]]);

    ch.end();
    expect(closed).toBe(1);
    expect(sent.at(-1)).toEqual(['third', 3]);
  });
});
