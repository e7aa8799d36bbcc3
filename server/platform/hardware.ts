// A probe of this machine through systeminformation, taken once and cached: CPU, memory, GPUs with
// their VRAM, the Apple Silicon generation, and free disk at the data folder. The pure mappers that
// turn it into a plan (hardware-fit.ts) and launch flags live beside it. systeminformation is
// loaded at the first probe, not at start; the boot's hardware check reads what it reports from
// Node's os module (machineSummary), so the GPU probe (which shells out) waits until a page or a
// job needs it.
import os from 'node:os';
import type Si from 'systeminformation';
import { diskFree } from './disk.js';
import { lazyRequire } from './lazy.js';

const loadSi = lazyRequire<typeof Si>('systeminformation');

export interface GpuInfo {
  vendor: 'nvidia' | 'amd' | 'intel' | 'apple' | 'other';
  model: string;
  vramBytes: number;
}

export interface HardwareProfile {
  platform: NodeJS.Platform;
  arch: string;
  cpu: { brand: string; cores: number };
  memoryBytes: number;
  gpus: GpuInfo[];
  /** M1 = 1, M2 = 2, …; null when not Apple Silicon. */
  appleSiliconGeneration: number | null;
  diskFreeBytes: number | null;
}

export type HardwareProbe = () => Promise<HardwareProfile>;

const MB = 1024 * 1024;

export function gpuVendor(vendor: string, model: string): GpuInfo['vendor'] {
  const s = `${vendor} ${model}`.toLowerCase();
  if (s.includes('nvidia')) return 'nvidia';
  if (s.includes('apple')) return 'apple';
  if (s.includes('amd') || s.includes('advanced micro') || s.includes('radeon')) return 'amd';
  if (s.includes('intel')) return 'intel';
  return 'other';
}

/** "Apple M2 Pro" -> 2. */
export function appleGeneration(cpuBrand: string): number | null {
  const m = /\bApple M(\d+)\b/i.exec(cpuBrand);
  return m ? Number(m[1]) : null;
}

/** Maps systeminformation's answers onto a HardwareProfile (pure; unit-tested on recorded outputs). */
export function toProfile(input: {
  platform: NodeJS.Platform;
  arch: string;
  cpu: { manufacturer?: string; brand?: string; cores?: number };
  mem: { total?: number };
  graphics: { controllers?: Array<{ vendor?: string; model?: string; vram?: number | null }> } | null;
  diskFreeBytes: number | null;
}): HardwareProfile {
  const brand = `${input.cpu.manufacturer ?? ''} ${input.cpu.brand ?? ''}`.replace(/\s+/g, ' ').trim();
  const gpus = (input.graphics?.controllers ?? []).map((c) => ({
    vendor: gpuVendor(c.vendor ?? '', c.model ?? ''),
    model: c.model ?? 'unknown',
    vramBytes: Math.max(0, (c.vram ?? 0) * MB),
  }));
  return {
    platform: input.platform,
    arch: input.arch,
    cpu: { brand, cores: input.cpu.cores ?? 1 },
    memoryBytes: input.mem.total ?? 0,
    gpus,
    appleSiliconGeneration: input.platform === 'darwin' ? appleGeneration(brand) : null,
    diskFreeBytes: input.diskFreeBytes,
  };
}

/** What the boot's hardware check reports: the part of a HardwareProfile the os module knows at once. */
export type MachineSummary = Pick<HardwareProfile, 'platform' | 'arch' | 'cpu' | 'memoryBytes'>;

export function machineSummary(): Promise<MachineSummary> {
  const cpus = os.cpus();
  return Promise.resolve({
    platform: process.platform,
    arch: process.arch,
    cpu: { brand: cpus[0]?.model.trim() ?? '', cores: os.availableParallelism() },
    memoryBytes: os.totalmem(),
  });
}

export function createHardwareProbe(dataDir: string): HardwareProbe {
  return async () => {
    const si = loadSi();
    const [cpu, mem, graphics, free] = await Promise.all([
      si.cpu(),
      si.mem(),
      // GPU probing shells out on some systems; a failure leaves the list empty, not the probe broken
      si.graphics().catch(() => null),
      diskFree(dataDir).catch(() => null),
    ]);
    return toProfile({ platform: process.platform, arch: process.arch, cpu, mem, graphics, diskFreeBytes: free });
  };
}

export function cachedProbe(probe: HardwareProbe): HardwareProbe {
  let pending: Promise<HardwareProfile> | null = null;
  return () => {
    pending ??= probe().catch((err: unknown) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
