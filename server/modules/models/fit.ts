// Whether an installed model runs well on this machine, from the hardware probe's memory budget
// (platform/hardware-fit.ts) and the model's size. Pure: unit-tested over a table of machines.
import type { HardwareProfile } from '../../platform/hardware.js';
import { modelBudget } from '../../platform/hardware-fit.js';
import type { ModelFit } from './schema.js';

const GB = 1024 ** 3;
/** A loaded model needs about its file size plus room for its context (KV cache). */
export const RUNTIME_OVERHEAD = 1.2;

const gb = (n: number) => (n >= 10 * GB ? String(Math.round(n / GB)) : (n / GB).toFixed(1));

export function modelFit(hw: HardwareProfile, sizeBytes: number | null): { fit: ModelFit; fitNote: string } | null {
  if (sizeBytes === null || sizeBytes <= 0) return null;
  const need = sizeBytes * RUNTIME_OVERHEAD;
  const budget = modelBudget(hw);
  const tooBig = {
    fit: 'wont_fit' as const,
    fitNote: `Needs about ${gb(need)} GB of memory; this computer has ${gb(hw.memoryBytes)} GB, so it will not run here.`,
  };
  if (budget.runsOn === 'cpu') {
    if (need <= budget.bytes) return { fit: 'fits', fitNote: 'Runs on this computer’s processor.' };
    if (need <= hw.memoryBytes * 0.75) return { fit: 'slow', fitNote: 'Fits in memory, but this computer has no graphics card for it, so answers come slowly.' };
    return tooBig;
  }
  if (need <= budget.bytes) {
    return { fit: 'fits', fitNote: budget.runsOn === 'gpu' ? 'Runs on this computer’s graphics card.' : 'Runs well in this computer’s shared memory.' };
  }
  if (need <= budget.bytes + hw.memoryBytes * 0.5) return { fit: 'slow', fitNote: 'Too big for the graphics memory alone: part of it runs on the processor, so answers come slower.' };
  return tooBig;
}
