// The models list's fit hint over a table of machines: fits, slow or will not fit, with a sentence.
import { describe, expect, it } from 'vitest';
import { modelFit } from '../../server/modules/models/fit.js';
import type { HardwareProfile } from '../../server/platform/hardware.js';

const GB = 1024 ** 3;
const machine = (memoryGB: number, gpu?: { vendor: 'nvidia' | 'intel'; vramGB: number }, apple: number | null = null): HardwareProfile => ({
  platform: apple ? 'darwin' : 'linux',
  arch: apple ? 'arm64' : 'x64',
  cpu: { brand: apple ? `Apple M${apple}` : 'Test CPU', cores: 8 },
  memoryBytes: memoryGB * GB,
  gpus: gpu ? [{ vendor: gpu.vendor, model: 'Test GPU', vramBytes: gpu.vramGB * GB }] : [],
  appleSiliconGeneration: apple,
  diskFreeBytes: null,
});

describe('modelFit', () => {
  it.each([
    ['a 2 GB model on a 16 GB laptop without a graphics card', machine(16), 2, 'fits', /processor/],
    ['a 9 GB model on a 16 GB laptop without a graphics card', machine(16), 9, 'slow', /no graphics card/],
    ['a 40 GB model on a 16 GB laptop', machine(16), 40, 'wont_fit', /will not run here/],
    ['a 5 GB model on a 12 GB graphics card', machine(32, { vendor: 'nvidia', vramGB: 12 }), 5, 'fits', /graphics card/],
    ['a 15 GB model on a 12 GB graphics card with 32 GB RAM', machine(32, { vendor: 'nvidia', vramGB: 12 }), 15, 'slow', /part of it runs on the processor/],
    ['a 9 GB model on an M2 with 32 GB', machine(32, undefined, 2), 9, 'fits', /shared memory/],
    ['an Intel integrated GPU counts as no graphics card', machine(16, { vendor: 'intel', vramGB: 2 }), 2, 'fits', /processor/],
  ])('%s', (_what, hw, sizeGB, fit, note) => {
    const got = modelFit(hw, sizeGB * GB);
    expect(got?.fit).toBe(fit);
    expect(got?.fitNote).toMatch(note);
  });

  it('is unknown for a model of unknown size', () => {
    expect(modelFit(machine(16), null)).toBeNull();
  });
});
