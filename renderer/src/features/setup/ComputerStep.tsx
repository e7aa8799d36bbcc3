// Wizard step: this computer in plain words (memory, graphics, free disk, processor) and where AI
// models will run, from the hardware probe behind GET /api/setup/catalog.
import type { ReactElement, Ref } from 'react';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useSetupCatalog } from './queries';
import { formatMemory, type FeaturePlan, type GpuInfo, type HardwareProfile } from '../features-admin';

const VENDOR: Record<GpuInfo['vendor'], string> = { nvidia: 'NVIDIA', amd: 'AMD', intel: 'Intel', apple: 'Apple', other: '' };

export function gpuText(hw: HardwareProfile): string {
  if (hw.appleSiliconGeneration !== null) return `Apple M${hw.appleSiliconGeneration}, built into the chip`;
  if (hw.gpus.length === 0) return 'None found';
  return hw.gpus
    .map((g) => {
      const name = g.model.toLowerCase().startsWith(VENDOR[g.vendor].toLowerCase()) || !VENDOR[g.vendor] ? g.model : `${VENDOR[g.vendor]} ${g.model}`;
      return g.vramBytes > 0 ? `${name} with ${formatMemory(g.vramBytes)} of its own memory` : name;
    })
    .join('; ');
}

export function runsOnText(plan: Pick<FeaturePlan, 'budget' | 'hardware'>): string {
  const { budget, hardware } = plan;
  const share = formatMemory(budget.bytes);
  switch (budget.runsOn) {
    case 'gpu':
      return `AI models run on the graphics card and may use up to ${share} of its memory, so answers come quickly. Everything else runs on the processor.`;
    case 'unified':
      return `AI models run on the Apple chip and share its memory with everything else: Hearth lets them use up to ${share} of the ${formatMemory(hardware.memoryBytes)}.`;
    case 'cpu':
      return `There is no graphics card Hearth can use, so AI models run on the processor with up to ${share} of memory. Answers take a little longer, so Hearth picks models sized for that.`;
  }
}

export function ComputerStep({ headingRef, onBack, onContinue }: { headingRef: Ref<HTMLHeadingElement>; onBack: () => void; onContinue: () => void }): ReactElement {
  const plan = useSetupCatalog();
  const data = plan.data;

  return (
    <>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        Your computer
      </h1>
      <p className="muted">Hearth looked at this computer to pick what runs well on it.</p>
      {plan.isPending ? (
        <LoadingState label="Looking at this computer…" />
      ) : plan.status === 'error' && !data ? (
        <ErrorState title="Hearth could not look at this computer" error={plan.error} onRetry={() => void plan.refetch()} />
      ) : data ? (
        <>
          <dl className="facts" data-testid="hardware-summary">
            <div className="facts__row">
              <dt>Memory</dt>
              <dd>{formatMemory(data.hardware.memoryBytes)}</dd>
            </div>
            <div className="facts__row">
              <dt>Graphics</dt>
              <dd>{gpuText(data.hardware)}</dd>
            </div>
            <div className="facts__row">
              <dt>Free disk space</dt>
              <dd>{data.hardware.diskFreeBytes === null ? 'Unknown' : formatBytes(data.hardware.diskFreeBytes)}</dd>
            </div>
            <div className="facts__row">
              <dt>Processor</dt>
              <dd>
                {data.hardware.cpu.brand || 'Unknown'}, {data.hardware.cpu.cores} cores
              </dd>
            </div>
          </dl>
          <div className="runs-on">
            <h2 className="runs-on__title">What runs where</h2>
            <p>{runsOnText(data)}</p>
          </div>
          {!data.disk.fits ? (
            <p className="banner banner--warn">
              <Icon name="warn" size={22} />
              <span>
                Disk space is tight: the essentials and suggested extras need {formatBytes(data.disk.essentialsBytes + data.disk.recommendedBytes)}. You can pick fewer extras next.
              </span>
            </p>
          ) : null}
        </>
      ) : null}
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onBack}>
          Back
        </button>
        <button type="button" className="btn btn--primary btn--wide" onClick={onContinue} disabled={plan.isPending}>
          Continue
        </button>
      </div>
    </>
  );
}
