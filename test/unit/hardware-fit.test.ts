import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../server/modules/features/catalog.js';
import { FeatureCatalog } from '../../server/modules/features/schema.js';
import { appleGeneration, gpuVendor, toProfile, type HardwareProfile } from '../../server/platform/hardware.js';
import { modelBudget, pickLargestFitting } from '../../server/platform/hardware-fit.js';

const GB = 1024 ** 3;
const catalog = new Catalog(FeatureCatalog.parse(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../resources/catalog/features.json'), 'utf8'))));

const machine = (over: Partial<HardwareProfile>): HardwareProfile => ({
  platform: 'linux',
  arch: 'x64',
  cpu: { brand: 'Intel Core i5', cores: 4 },
  memoryBytes: 16 * GB,
  gpus: [],
  appleSiliconGeneration: null,
  diskFreeBytes: 500 * GB,
  ...over,
});

const MACHINES: Array<{ name: string; hw: HardwareProfile; chat: string; runsOn: string }> = [
  { name: '8 GB laptop, integrated graphics', hw: machine({ memoryBytes: 8 * GB, gpus: [{ vendor: 'intel', model: 'Iris Xe', vramBytes: 0 }] }), chat: 'chat-small', runsOn: 'cpu' },
  { name: '16 GB M1', hw: machine({ platform: 'darwin', arch: 'arm64', cpu: { brand: 'Apple M1', cores: 8 }, appleSiliconGeneration: 1, gpus: [{ vendor: 'apple', model: 'Apple M1', vramBytes: 0 }] }), chat: 'chat-medium', runsOn: 'unified' },
  { name: '32 GB M2 Pro', hw: machine({ platform: 'darwin', arch: 'arm64', memoryBytes: 32 * GB, cpu: { brand: 'Apple M2 Pro', cores: 12 }, appleSiliconGeneration: 2 }), chat: 'chat-large', runsOn: 'unified' },
  { name: 'NVIDIA 12 GB desktop, 32 GB RAM', hw: machine({ memoryBytes: 32 * GB, gpus: [{ vendor: 'nvidia', model: 'GeForce RTX 3060', vramBytes: 12 * GB }] }), chat: 'chat-medium', runsOn: 'gpu' },
  { name: 'CPU-only mini PC, 16 GB', hw: machine({ cpu: { brand: 'Intel N100', cores: 4 } }), chat: 'chat-medium', runsOn: 'cpu' },
  { name: 'CPU-only mini PC, 4 GB', hw: machine({ memoryBytes: 4 * GB }), chat: 'chat-small', runsOn: 'cpu' },
  { name: 'NVIDIA 24 GB workstation, 64 GB RAM', hw: machine({ memoryBytes: 64 * GB, gpus: [{ vendor: 'nvidia', model: 'RTX 4090', vramBytes: 24 * GB }, { vendor: 'nvidia', model: 'RTX 3060', vramBytes: 12 * GB }] }), chat: 'chat-large', runsOn: 'gpu' },
];

describe('hardware fit', () => {
  for (const m of MACHINES) {
    it(`${m.name}: ${m.chat} on ${m.runsOn}`, () => {
      const budget = modelBudget(m.hw);
      expect(budget.runsOn).toBe(m.runsOn);
      const pick = pickLargestFitting(catalog.chatModels(), budget.bytes)!;
      expect(pick.item.id).toBe(m.chat);
    });
  }

  it('falls back to the smallest model, marked as not fitting, on a tiny machine', () => {
    const pick = pickLargestFitting(catalog.chatModels(), 2 * GB)!;
    expect(pick).toMatchObject({ fits: false, item: { id: 'chat-small' } });
  });
});

describe('hardware probe mapping', () => {
  it('maps systeminformation answers, converting VRAM from MB', () => {
    const p = toProfile({
      platform: 'linux',
      arch: 'x64',
      cpu: { manufacturer: 'AMD', brand: 'Ryzen 7 5800X', cores: 16 },
      mem: { total: 32 * GB },
      graphics: { controllers: [{ vendor: 'NVIDIA Corporation', model: 'NVIDIA GeForce RTX 3060', vram: 12288 }] },
      diskFreeBytes: 100 * GB,
    });
    expect(p.gpus).toEqual([{ vendor: 'nvidia', model: 'NVIDIA GeForce RTX 3060', vramBytes: 12 * GB }]);
    expect(p.cpu).toEqual({ brand: 'AMD Ryzen 7 5800X', cores: 16 });
    expect(p.appleSiliconGeneration).toBeNull();
  });

  it('recognises Apple Silicon generations only on macOS', () => {
    expect(appleGeneration('Apple M3 Max')).toBe(3);
    expect(appleGeneration('Intel Core i9')).toBeNull();
    const mac = toProfile({ platform: 'darwin', arch: 'arm64', cpu: { manufacturer: 'Apple', brand: 'M2 Pro', cores: 12 }, mem: { total: 32 * GB }, graphics: null, diskFreeBytes: null });
    expect(mac.appleSiliconGeneration).toBe(2);
    expect(mac.gpus).toEqual([]);
  });

  it('classifies GPU vendors', () => {
    expect(gpuVendor('Advanced Micro Devices, Inc. [AMD/ATI]', 'Radeon RX 6800')).toBe('amd');
    expect(gpuVendor('Intel Corporation', 'UHD Graphics 620')).toBe('intel');
    expect(gpuVendor('', 'Apple M1')).toBe('apple');
    expect(gpuVendor('Matrox', 'G200')).toBe('other');
  });
});

describe('feature catalog', () => {
  it('ships a valid catalog with every spec group', () => {
    expect(catalog.data.groups.map((g) => g.id).sort()).toEqual(['chat', 'home-inventory', 'images', 'library', 'maps', 'voice']);
  });

  it('orders prerequisites first: image models need the engine base and its custom nodes', () => {
    expect(catalog.artifactsWithRequirements(['sdxl-lightning'])).toEqual(['image-engine', 'image-engine-nodes', 'sdxl-lightning']);
    expect(catalog.withRequirements(['images-fast'])).toEqual(['images-base', 'images-fast']);
  });

  it('rejects a catalog that points at unknown items or artifacts', () => {
    const bad = structuredClone(catalog.data) as any;
    bad.groups[0].base.requires = ['nope'];
    expect(FeatureCatalog.safeParse(bad).success).toBe(false);
  });
});
