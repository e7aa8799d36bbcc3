import { describe, expect, it } from 'vitest';
import { forgetHeapTunables, GLIBC_HEAP_TUNABLES, heapTunablesEnv } from '../../server/platform/heap-tunables.js';

describe('heapTunablesEnv', () => {
  it('gives a Linux server process glibc settings that keep freed heap instead of handing it back', () => {
    expect(heapTunablesEnv({}, 'linux')).toEqual({ GLIBC_TUNABLES: GLIBC_HEAP_TUNABLES });
    expect(GLIBC_HEAP_TUNABLES).toMatch(/^glibc\.malloc\.trim_threshold=\d+:glibc\.malloc\.top_pad=\d+$/);
  });

  it('adds nothing where glibc is not the allocator', () => {
    expect(heapTunablesEnv({}, 'darwin')).toEqual({});
    expect(heapTunablesEnv({}, 'win32')).toEqual({});
  });

  it('leaves settings the operator made alone', () => {
    expect(heapTunablesEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, 'linux')).toEqual({});
  });

  it('takes its own setting out of the environment of a started server, so sidecars do not inherit it', () => {
    const env: NodeJS.ProcessEnv = { ...heapTunablesEnv({}, 'linux'), PATH: '/usr/bin' };
    forgetHeapTunables(env);
    expect(env).toEqual({ PATH: '/usr/bin' });
    const operators: NodeJS.ProcessEnv = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' };
    forgetHeapTunables(operators);
    expect(operators.GLIBC_TUNABLES).toBe('glibc.malloc.arena_max=2');
  });
});
