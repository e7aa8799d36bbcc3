import { describe, expect, it } from 'vitest';
import type { ModelDetails } from '../../server/adapters/model-runtime/ollama.js';
import { ModelDetailsCache } from '../../server/modules/models/details.js';

const details = (name: string): ModelDetails => ({ name, capabilities: ['completion', 'tools'], contextLength: 8192, family: 'llama', parameterSize: '3B' });

describe('ModelDetailsCache', () => {
  it('asks once for callers at the same time, keeps the answer for its ttl, then asks again', async () => {
    let now = 0;
    const asked: string[] = [];
    const cache = new ModelDetailsCache({
      runtime: { show: async (m) => (asked.push(m), details(m)) },
      now: () => now,
      ttlMs: 1000,
    });
    const [a, b] = await Promise.all([cache.get('llama3.2:3b'), cache.get('llama3.2:3b')]);
    expect(a).toEqual(details('llama3.2:3b'));
    expect(b).toBe(a);
    expect(asked).toEqual(['llama3.2:3b']);
    now = 999;
    await cache.get('llama3.2:3b');
    expect(asked).toHaveLength(1);
    now = 1000;
    await cache.get('llama3.2:3b');
    expect(asked).toHaveLength(2);
    cache.forget('llama3.2:3b');
    await cache.get('llama3.2:3b');
    expect(asked).toHaveLength(3);
  });

  it('keeps no failure: the next caller asks again', async () => {
    let fail = true;
    const cache = new ModelDetailsCache({
      runtime: {
        show: async (m) => {
          if (fail) throw new Error('down');
          return details(m);
        },
      },
      now: () => 0,
    });
    await expect(cache.get('x')).rejects.toThrow('down');
    fail = false;
    expect((await cache.get('x')).name).toBe('x');
  });
});
