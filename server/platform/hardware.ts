// A probe of this machine through systeminformation, taken once and cached. Boot and setup use it;
// the hardware-fit mapping (issue #4/#7) builds on HardwareProfile.
import si from 'systeminformation';

export interface HardwareProfile {
  platform: NodeJS.Platform;
  arch: string;
  cpu: { brand: string; cores: number };
  memoryBytes: number;
}

export type HardwareProbe = () => Promise<HardwareProfile>;

export const probeHardware: HardwareProbe = async () => {
  const [cpu, mem] = await Promise.all([si.cpu(), si.mem()]);
  return {
    platform: process.platform,
    arch: process.arch,
    cpu: { brand: `${cpu.manufacturer} ${cpu.brand}`.trim(), cores: cpu.cores },
    memoryBytes: mem.total,
  };
};

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
