// Adding a device. By photo: the label photo (the phone's camera) makes a draft device
// (POST /devices {name: 'New device'}), goes up as its main photo with progress, is read
// (POST /devices/:id/identify), and the review shows every field editable with the label's text;
// Save writes the confirmed fields (which starts the web lookup), Cancel (or leaving) deletes the
// draft. When the AI cannot help, what the text reader found is shown anyway with why and what to
// do. By hand: the same form, empty, saved with POST /devices.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { UploadProgress } from '../../ui/UploadProgress';
import { DeviceForm, draftFromIdentified, EMPTY_DRAFT, type DeviceDraft } from './DeviceForm';
import { useCreateDevice, useDeleteDevice, useIdentify, usePatchAnyDevice, useUploadFile } from './queries';
import { confidenceWords, deviceHref, type IdentifiedFields, type IdentifyResponse } from './types';

export type AddMode = { kind: 'photo'; file: File } | { kind: 'hand' };

type Step =
  | { at: 'creating' }
  | { at: 'uploading'; fraction: number }
  | { at: 'reading' }
  | { at: 'review'; draft: DeviceDraft; rawLabelText: string; intro: 'ai' | 'ocr-only' | 'failed'; why: string | null; fields: IdentifiedFields | null }
  | { at: 'failed'; error: string };

/** What the server sent with a refusal of identify (503/409): the text reader's findings. */
function ocrDetails(err: unknown): { rawLabelText: string; fields: IdentifiedFields | null } | null {
  if (!(err instanceof ApiError) || !err.details || typeof err.details !== 'object') return null;
  const d = err.details as { rawLabelText?: unknown; fields?: unknown };
  if (typeof d.rawLabelText !== 'string') return null;
  return { rawLabelText: d.rawLabelText, fields: d.fields && typeof d.fields === 'object' ? (d.fields as IdentifiedFields) : null };
}

/** Why the AI could not help, and what to do, in one sentence per case. */
function whyNoAi(err: unknown): string {
  const status = err instanceof ApiError ? err.status : 0;
  if (status === 503) return 'The AI helper is not running right now, so Hearth only read the text on the label. Check the fields below; an admin can start the AI under Admin → Models to have labels read fully.';
  if (status === 409) return 'No AI model is ready to read labels yet, so Hearth only read the text on the label. Check the fields below; an admin can choose one under Admin → Models.';
  return `Hearth could not read this label: ${errorMessage(err)} Fill in the fields by hand, or cancel and take a sharper photo.`;
}

export function AddDevice({ mode, onDone }: { mode: AddMode; onDone: () => void }): ReactElement {
  const navigate = useNavigate();
  const create = useCreateDevice();
  const upload = useUploadFile();
  const identify = useIdentify();
  const patch = usePatchAnyDevice();
  const remove = useDeleteDevice();
  const [step, setStep] = useState<Step>(mode.kind === 'photo' ? { at: 'creating' } : { at: 'review', draft: EMPTY_DRAFT, rawLabelText: '', intro: 'ai', why: null, fields: null });
  const draftId = useRef<string | null>(null);
  const saved = useRef(false);
  const abort = useRef<AbortController | null>(null);
  const started = useRef(false);

  // a draft left behind (Cancel, Back, another page) is deleted: nothing half-made stays in the list
  useEffect(
    () => () => {
      abort.current?.abort();
      if (draftId.current && !saved.current) remove.mutate(draftId.current);
    },
    [], // on leaving only
  );

  const run = async (file: File) => {
    try {
      setStep({ at: 'creating' });
      if (!draftId.current) draftId.current = (await create.mutateAsync({ name: 'New device' })).id;
      const id = draftId.current;
      abort.current = new AbortController();
      setStep({ at: 'uploading', fraction: 0 });
      const photo = await upload.mutateAsync({ deviceId: id, file, role: 'main', onProgress: (fraction) => setStep({ at: 'uploading', fraction }), signal: abort.current.signal });
      setStep({ at: 'reading' });
      try {
        const r: IdentifyResponse = await identify.mutateAsync({ deviceId: id, fileId: photo.id });
        setStep({ at: 'review', draft: draftFromIdentified(r.fields), rawLabelText: r.rawLabelText, intro: r.passes.reconcile ? 'ai' : 'ocr-only', why: null, fields: r.fields });
      } catch (err) {
        const ocr = ocrDetails(err);
        setStep({
          at: 'review',
          draft: ocr?.fields ? draftFromIdentified(ocr.fields) : EMPTY_DRAFT,
          rawLabelText: ocr?.rawLabelText ?? '',
          intro: 'failed',
          why: whyNoAi(err),
          fields: ocr?.fields ?? null,
        });
      }
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      setStep({ at: 'failed', error: errorMessage(err) });
    }
  };

  useEffect(() => {
    if (mode.kind !== 'photo' || started.current) return;
    started.current = true;
    void run(mode.file);
  }, []); // once, for the photo it opened with

  const cancel = () => {
    abort.current?.abort();
    const id = draftId.current;
    draftId.current = null;
    if (id) remove.mutate(id);
    onDone();
  };

  const save = (body: Parameters<typeof patch.mutate>[0]['body'] & { name: string }) => {
    const id = draftId.current;
    if (id) {
      patch.mutate(
        { id, body },
        {
          onSuccess: (device) => {
            saved.current = true;
            navigate(deviceHref(device.id));
          },
        },
      );
    } else {
      create.mutate(body as Parameters<typeof create.mutate>[0], {
        onSuccess: (device) => {
          saved.current = true;
          navigate(deviceHref(device.id));
        },
      });
    }
  };

  const title = mode.kind === 'photo' ? 'Add by photo' : 'Add by hand';
  const saveError = patch.error ?? (step.at === 'review' && !draftId.current ? create.error : null);

  return (
    <section className="page inv-add" aria-labelledby="inv-add-title" data-testid="inventory-add">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="inv-add-title" className="page__title">
            {title}
          </h1>
          {step.at === 'review' ? <p className="muted page__description">Check each field, change what is wrong, then save.</p> : null}
        </div>
      </div>

      {step.at === 'creating' || step.at === 'uploading' || step.at === 'reading' ? (
        <div className="card inv-add__progress" role="status" aria-live="polite" data-testid="add-progress">
          <Spinner size={28} />
          <p className="state__title">{step.at === 'reading' ? 'Reading the label…' : step.at === 'uploading' ? 'Sending the photo…' : 'Getting ready…'}</p>
          {step.at === 'uploading' ? (
            <UploadProgress label="Photo upload" fraction={step.fraction} />
          ) : null}
          {step.at === 'reading' ? <p className="muted">This can take up to a minute. Hearth reads the brand, model and serial number from the photo.</p> : null}
          <button type="button" className="btn btn--secondary" onClick={cancel}>
            Cancel
          </button>
        </div>
      ) : null}

      {step.at === 'failed' ? (
        <div className="state state--error" role="alert" data-testid="add-failed">
          <Icon name="error" size={28} />
          <p className="state__title">The photo could not be added</p>
          <p className="state__body">{step.error}</p>
          <div className="actions">
            <button type="button" className="btn btn--secondary" onClick={cancel}>
              Cancel
            </button>
            {mode.kind === 'photo' ? (
              <button type="button" className="btn btn--primary" onClick={() => void run(mode.file)}>
                <Icon name="refresh" size={20} />
                Try again
              </button>
            ) : null}
          </div>
        </div>
      ) : null}

      {step.at === 'review' ? (
        <DeviceForm
          testId="device-review"
          initial={step.draft}
          saveLabel="Save device"
          busy={patch.isPending || create.isPending}
          error={saveError ? errorMessage(saveError) : null}
          fieldErrors={saveError instanceof ApiError ? saveError.fieldIssues : undefined}
          onSave={save}
          onCancel={cancel}
          intro={
            mode.kind === 'photo' ? (
              <div className="inv-review__intro">
                {step.why ? (
                  <p className="banner banner--warn" data-testid="identify-why">
                    <Icon name="warn" size={22} />
                    <span>{step.why}</span>
                  </p>
                ) : (
                  <p className="banner banner--info" data-testid="identify-confidence">
                    <Icon name="sparkles" size={22} />
                    <span>{confidenceWords(step.fields ?? { confidence: 0 }, step.intro === 'ai')}</span>
                  </p>
                )}
                <details className="inv-label-text" open={!step.rawLabelText ? undefined : step.intro !== 'ai'}>
                  <summary>What the label says</summary>
                  {step.rawLabelText ? <pre data-testid="label-text">{step.rawLabelText}</pre> : <p className="muted">No text could be read from the photo.</p>}
                </details>
              </div>
            ) : null
          }
        />
      ) : null}
    </section>
  );
}
