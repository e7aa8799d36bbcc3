import { describe, expect, it } from 'vitest';
import { GLIBC_HEAP_TUNABLES, heapTunablesEnv, withoutHeapTunables } from '../../server/platform/heap-tunables.js';

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

  it('is taken out of the environment of the programs the server starts; an own setting of the operator is passed on', () => {
    expect(withoutHeapTunables({ ...heapTunablesEnv({}, 'linux'), PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
    expect(withoutHeapTunables({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2', PATH: '/usr/bin' })).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2', PATH: '/usr/bin' });
  });
});
