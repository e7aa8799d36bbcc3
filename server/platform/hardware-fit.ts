// Hardware fit: which chat model this machine can run well, and whether picture models fit.
// Pure functions of a HardwareProfile and the catalog's items (unit-tested over a table of machines).
import type { HardwareProfile } from './hardware.js';

const GB = 1024 ** 3;

export interface FitCandidate {
  id: string;
  ramBytes: number;
}

export interface MemoryBudget {
  /** Memory a model may use. */
  bytes: number;
  /** Where models run. */
  runsOn: 'gpu' | 'unified' | 'cpu';
  summary: string;
}

/** The memory a local model may use on this machine, leaving room for the OS and Hearth. */
export function modelBudget(hw: HardwareProfile): MemoryBudget {
  const best = [...hw.gpus].filter((g) => g.vendor === 'nvidia' || g.vendor === 'amd').sort((a, b) => b.vramBytes - a.vramBytes)[0];
  if (hw.appleSiliconGeneration !== null) {
    // unified memory: macOS lets the GPU use about two thirds of it
    return { bytes: Math.floor(hw.memoryBytes * 0.65), runsOn: 'unified', summary: `Apple M${hw.appleSiliconGeneration}, ${Math.round(hw.memoryBytes / GB)} GB unified memory` };
  }
  if (best && best.vramBytes >= 4 * GB) {
    return { bytes: Math.floor(best.vramBytes * 0.9), runsOn: 'gpu', summary: `${best.model}, ${Math.round(best.vramBytes / GB)} GB VRAM` };
  }
  // CPU only: half the RAM, and no more than a 7B model is pleasant to wait for
  return { bytes: Math.min(Math.floor(hw.memoryBytes * 0.5), 8 * GB), runsOn: 'cpu', summary: `CPU only, ${Math.round(hw.memoryBytes / GB)} GB RAM` };
}

/** The largest candidate whose memory need fits the budget; the smallest when none fits. */
export function pickLargestFitting<T extends FitCandidate>(candidates: readonly T[], budgetBytes: number): { item: T; fits: boolean } | null {
  if (candidates.length === 0) return null;
  const sorted = [...candidates].sort((a, b) => a.ramBytes - b.ramBytes);
  const largest = sorted.filter((c) => c.ramBytes <= budgetBytes).at(-1);
  return largest ? { item: largest, fits: true } : { item: sorted[0]!, fits: false };
}

/** Whether an item's memory need fits this machine (for every other item of the catalog). */
export function itemFits(hw: HardwareProfile, ramBytes: number): boolean {
  const budget = modelBudget(hw);
  // non-chat items share the machine with a chat model; judge them against the larger of RAM/2 and the budget
  return ramBytes <= Math.max(budget.bytes, hw.memoryBytes * 0.5);
}
