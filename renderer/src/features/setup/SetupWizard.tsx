// The first-run wizard: welcome -> create the admin -> model runtime check -> this computer ->
// the plan (essentials + extras) -> installing -> finish.
// Once the admin exists, every step change (and the plan's choices) is saved with PUT
// /api/setup/state, so a reload (or signing in again later) resumes at the same step with the same
// choices. Finishing calls /api/setup/welcome-complete.
import { useEffect, useRef, useState, type ReactElement, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import type { SetupState, SetupStatus } from '../../api/types';
import { useSession } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { ComputerStep } from './ComputerStep';
import { CreateAdminStep } from './CreateAdminStep';
import { HouseAddress } from './HouseAddress';
import { InstallStep } from './InstallStep';
import { PlanStep } from './PlanStep';
import { RuntimeStep } from './RuntimeStep';
import { useCompleteWelcome, useSaveSetupState } from './queries';
import { savedChoices, type WizardChoices } from './wizard-state';

export type StepId = 'welcome' | 'admin' | 'runtime' | 'computer' | 'plan' | 'install' | 'finish';

const STEPS: ReadonlyArray<{ id: StepId; title: string }> = [
  { id: 'welcome', title: 'Welcome' },
  { id: 'admin', title: 'Admin' },
  { id: 'runtime', title: 'Model runtime' },
  { id: 'computer', title: 'Your computer' },
  { id: 'plan', title: 'Your plan' },
  { id: 'install', title: 'Installing' },
  { id: 'finish', title: 'Finish' },
];

/** Steps that can be resumed from saved state (the first two only make sense before the admin exists). */
const RESUMABLE: readonly StepId[] = ['runtime', 'computer', 'plan', 'install', 'finish'];

export function initialStep(setup: SetupStatus): StepId {
  if (setup.needsAdmin) return 'welcome';
  const saved = setup.state?.step;
  return typeof saved === 'string' && (RESUMABLE as readonly string[]).includes(saved) ? (saved as StepId) : 'runtime';
}

export function SetupWizard(): ReactElement {
  const { setup, user, updateSetup } = useSession();
  const [step, setStep] = useState<StepId>(() => initialStep(setup));
  const [saveError, setSaveError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const saveState = useSaveSetupState();
  const choices = savedChoices(setup.state);
  const index = STEPS.findIndex((s) => s.id === step);
  usePageTitle(`Set up · ${STEPS[index]!.title}`);

  // Move focus to the new step's heading so keyboard and screen-reader users start at the top.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  /** Saves the step and choices; saves run one after another so the last one wins on the server. */
  const save = (state: SetupState) => {
    updateSetup({ state });
    const put = saving.current.then(() => saveState.mutateAsync(state));
    saving.current = put.catch(() => undefined);
    put.catch((err: unknown) => {
      // Not fatal: the wizard still works, it just would not resume here after a reload.
      setSaveError(`Your progress was not saved (${errorMessage(err)}).`);
    });
    return put;
  };

  const saveChoices = (patch: WizardChoices) => void save({ ...setup.state, ...patch }).catch(() => undefined);

  const goTo = async (next: StepId, opts: { persist?: boolean; choices?: WizardChoices } = {}) => {
    setStep(next);
    setSaveError(null);
    if (opts.persist === false) return;
    await save({ ...setup.state, ...opts.choices, step: next }).catch(() => undefined);
  };

  return (
    <div className="wizard">
      <header className="wizard__brand">
        <Icon name="flame" size={32} className="brand__mark" />
        <span className="brand__name">Hearth</span>
      </header>
      <ol className="stepper" aria-label="Setup steps">
        {STEPS.map((s, i) => (
          <li key={s.id} className={i < index ? 'stepper__item is-done' : i === index ? 'stepper__item is-current' : 'stepper__item'} aria-current={i === index ? 'step' : undefined}>
            <span className="stepper__dot" aria-hidden="true">
              {i < index ? <Icon name="check" size={16} /> : i + 1}
            </span>
            <span className="stepper__label">{s.title}</span>
          </li>
        ))}
      </ol>
      <section className="card wizard__card" aria-labelledby="wizard-step-title" data-testid={`setup-step-${step}`}>
        <p className="wizard__count muted">
          Step {index + 1} of {STEPS.length}
        </p>
        {step === 'welcome' ? (
          <>
            <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
              Welcome to Hearth
            </h1>
            <p>Hearth keeps your household&rsquo;s apps, library and helpers on this computer, for everyone at home to use from their own phone or laptop.</p>
            <p className="muted">Setting it up takes a few minutes: you will create the admin profile, check the model runtime that powers chat, and choose what to install.</p>
            <div className="actions">
              <button type="button" className="btn btn--primary btn--wide" onClick={() => void goTo('admin', { persist: false })}>
                Get started
              </button>
            </div>
          </>
        ) : null}
        {step === 'admin' ? (
          <CreateAdminStep
            headingRef={headingRef}
            onBack={() => void goTo('welcome', { persist: false })}
            onCreated={() => void goTo('runtime')}
          />
        ) : null}
        {step === 'runtime' ? (
          <RuntimeStep headingRef={headingRef} onContinue={() => void goTo('computer')} />
        ) : null}
        {step === 'computer' ? <ComputerStep headingRef={headingRef} onBack={() => void goTo('runtime')} onContinue={() => void goTo('plan')} /> : null}
        {step === 'plan' ? (
          <PlanStep
            headingRef={headingRef}
            savedExtras={choices.extras}
            onChange={(extras) => saveChoices({ extras })}
            onBack={() => void goTo('computer')}
            onContinue={(extras) => void goTo('install', { choices: { extras, install: undefined, queued: undefined } })}
            onSkip={() => void goTo('finish')}
          />
        ) : null}
        {step === 'install' ? (
          <InstallStep
            headingRef={headingRef}
            extras={choices.extras ?? []}
            finished={choices.install === 'done' ? { queued: choices.queued ?? 0 } : null}
            onInstalled={(queued) => saveChoices({ install: 'done', queued })}
            onBack={() => void goTo('plan')}
            onFinish={() => void goTo('finish')}
          />
        ) : null}
        {step === 'finish' ? <FinishStep headingRef={headingRef} name={user?.name ?? ''} onBack={() => void goTo('plan')} /> : null}
        {saveError ? (
          <p className="banner banner--warn" role="status">
            {saveError}
          </p>
        ) : null}
      </section>
    </div>
  );
}

function FinishStep({ headingRef, name, onBack }: { headingRef: Ref<HTMLHeadingElement>; name: string; onBack: () => void }): ReactElement {
  const { updateSetup } = useSession();
  const navigate = useNavigate();
  const complete = useCompleteWelcome();
  // busy from the click until Home opens (a success leaves this screen)
  const busy = complete.isPending || complete.isSuccess;

  const finish = () =>
    complete.mutate(undefined, {
      onSuccess: () => {
        updateSetup({ welcomeComplete: true });
        navigate('/', { replace: true });
      },
    });

  return (
    <>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        You&rsquo;re all set{name ? `, ${name}` : ''}
      </h1>
      <p>You are the household&rsquo;s admin. Next, add everyone else from <strong>Members</strong>: each person gets their own profile and PIN.</p>
      <h2 className="house-address__title">Open Hearth on every phone</h2>
      <HouseAddress />
      <FormError message={complete.isError ? errorMessage(complete.error) : null} />
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onBack} disabled={busy}>
          Back
        </button>
        <button type="button" className="btn btn--primary btn--wide" onClick={finish} disabled={busy}>
          {busy ? <Spinner size={20} /> : null}
          Open Hearth
        </button>
      </div>
    </>
  );
}
