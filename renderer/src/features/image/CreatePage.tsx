// Create: a picture from words, simple enough for a child. A prompt box, style chips (Auto and the
// nine styles), the shape (Auto, tall, wide, square), Fast mode, and the add-ons (LoRAs) this member
// may use, hidden when there are none. Create streams the job (POST /generate): the place in the
// queue, then a step bar and live preview frames, Cancel, and the finished picture with Download and
// Delete. Half-way through, when a vision model can look, Hearth checks the preview once
// (POST /preview-check) and offers a corrected prompt as a chip. A reload follows the running job
// again (GET /building, then its stream). The engine's state comes first (EngineNotice).
import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { MAX_JOB_LORAS as SERVER_MAX_JOB_LORAS, MAX_PROMPT_CHARS as SERVER_MAX_PROMPT } from '../../../../server/modules/image-gen/schema.js';
import { Icon, Spinner } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { ArtifactView, availabilityOf, EngineNotice, ImageSubnav, JobView, readinessOf } from './parts';
import { previewCheck, useBuilding, useImageStatus, useMemberLoras } from './queries';
import { EDIT_HREF, ORIENTATION_TEXT, ORIENTATIONS, STYLE_TEXT, STYLES, type MemberLora, type OrientationChoice, type PreviewCheckResponse, type Style } from './types';
import { useImageJob } from './useImageJob';
import './image.css';

const MAX_PROMPT_CHARS: typeof SERVER_MAX_PROMPT = 1_000;
const MAX_JOB_LORAS: typeof SERVER_MAX_JOB_LORAS = 3;

export function CreatePage(): ReactElement {
  const status = useImageStatus();
  const loras = useMemberLoras();
  const building = useBuilding();
  const job = useImageJob();
  const [prompt, setPrompt] = useState('');
  const [style, setStyle] = useState<Style | 'auto'>('auto');
  const [orientation, setOrientation] = useState<OrientationChoice>('auto');
  const [fast, setFast] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const [weights, setWeights] = useState<Record<string, number> | null>(null);
  const [suggestion, setSuggestion] = useState<PreviewCheckResponse | null>(null);
  const checked = useRef<string | null>(null);
  const attached = useRef(false);

  // after a reload, follow the job that is still on its way
  useEffect(() => {
    if (attached.current || !building.data || job.state.phase !== 'idle') return;
    if (building.data.state !== 'queued' && building.data.state !== 'building') return;
    attached.current = true;
    if (building.data.prompt) setPrompt(building.data.prompt);
    job.attach(building.data);
  }, [building.data, job]);

  // once, half-way through, let the vision model look at the preview (quietly nothing when none can)
  const { phase, preview, current, total, id } = job.state;
  useEffect(() => {
    if (phase !== 'drawing' || !preview || !id || total <= 0 || current * 2 < total || checked.current === id) return;
    checked.current = id;
    previewCheck(id)
      .then((r) => {
        if (!r.match && r.correctedPrompt) setSuggestion(r);
      })
      .catch(() => undefined);
  }, [phase, preview, current, total, id]);

  if (!status.data) {
    return (
      <Frame>
        {status.error ? <ErrorState title="The picture maker did not answer" error={status.error} onRetry={() => void status.refetch()} /> : <LoadingState label="Looking at the picture maker…" />}
      </Frame>
    );
  }

  const ready = readinessOf(status.data) === 'ready';
  const txt2img = availabilityOf(status.data, 'txt2img');
  const canCreate = ready && txt2img.available && prompt.trim().length > 0 && !job.running;
  const available: MemberLora[] = loras.data ?? [];

  const create = () => {
    setSuggestion(null);
    job.generate({
      prompt: prompt.trim(),
      ...(style !== 'auto' ? { style } : {}),
      ...(orientation !== 'auto' ? { orientation } : {}),
      fast,
      ...(chosen.length ? { loraIds: chosen } : {}),
      ...(weights ? { loraWeights: weights } : {}),
    });
  };

  const toggleLora = (loraId: string) => setChosen((c) => (c.includes(loraId) ? c.filter((x) => x !== loraId) : c.length >= MAX_JOB_LORAS ? c : [...c, loraId]));

  return (
    <Frame>
      <EngineNotice status={status.data} />
      {ready && !txt2img.available ? (
        <p className="banner banner--warn" role="status" data-testid="txt2img-unavailable">
          <Icon name="warn" size={22} />
          <span>{txt2img.reason}</span>
        </p>
      ) : null}

      <form
        className="img-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (canCreate) create();
        }}
      >
        <div className="field">
          <label htmlFor="img-prompt" className="field__label">
            What should the picture show?
          </label>
          <textarea
            id="img-prompt"
            className="input img-prompt"
            rows={3}
            maxLength={MAX_PROMPT_CHARS}
            placeholder="A red fox reading a book under a tree"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && canCreate) create();
            }}
          />
        </div>

        {suggestion?.correctedPrompt ? (
          <div className="img-suggestion" data-testid="prompt-suggestion" role="status">
            <Icon name="eye" size={20} />
            <span>
              {suggestion.seen ? `It looks more like ${suggestion.seen}. ` : 'It may not match your words. '}
              Try: “{suggestion.correctedPrompt}”
            </span>
            <button
              type="button"
              className="btn btn--secondary btn--compact"
              onClick={() => {
                setPrompt(suggestion.correctedPrompt ?? prompt);
                setWeights(suggestion.loraWeights);
                setSuggestion(null);
              }}
            >
              Use this
            </button>
          </div>
        ) : null}

        <fieldset className="img-fieldset">
          <legend className="field__label">Style</legend>
          <div className="img-chips">
            {(['auto', ...STYLES] as const).map((s) => (
              <button key={s} type="button" className="img-chip" aria-pressed={style === s} onClick={() => setStyle(s)}>
                {s === 'auto' ? 'Auto' : STYLE_TEXT[s]}
              </button>
            ))}
          </div>
        </fieldset>

        <fieldset className="img-fieldset">
          <legend className="field__label">Shape</legend>
          <div className="segmented" role="group" aria-label="Shape">
            {ORIENTATIONS.map((o) => (
              <button key={o} type="button" className="segmented__btn" aria-pressed={orientation === o} onClick={() => setOrientation(o)}>
                {ORIENTATION_TEXT[o]}
              </button>
            ))}
          </div>
        </fieldset>

        <Switch label="Fast mode" hint="Quicker, with a little less detail." checked={fast} onCheckedChange={setFast} testId="fast-mode" />

        {available.length > 0 ? (
          <fieldset className="img-fieldset" data-testid="lora-picker">
            <legend className="field__label">Add-ons</legend>
            <p className="field__hint">Characters and looks your household added. Pick up to {MAX_JOB_LORAS}, or none and Hearth chooses.</p>
            <div className="img-chips">
              {available.map((l) => (
                <button key={l.id} type="button" className="img-chip" aria-pressed={chosen.includes(l.id)} onClick={() => toggleLora(l.id)} title={l.whenToUse ?? undefined}>
                  {l.name}
                </button>
              ))}
            </div>
          </fieldset>
        ) : null}

        <div className="actions">
          <button type="submit" className="btn btn--primary" disabled={!canCreate} data-testid="create">
            {job.running ? <Spinner size={18} /> : <Icon name="sparkles" size={20} />}
            {job.running ? 'Creating…' : 'Create'}
          </button>
        </div>
      </form>

      <JobView job={job} />

      {job.state.phase === 'cancelled' ? (
        <p className="banner banner--info" role="status" data-testid="job-cancelled">
          <Icon name="close" size={22} />
          <span>Stopped. Nothing was saved.</span>
        </p>
      ) : null}
      {job.state.phase === 'failed' ? (
        <p className="banner banner--error" role="alert" data-testid="job-failed">
          <Icon name="warn" size={22} />
          <span>{job.state.error}</span>
        </p>
      ) : null}
      {job.state.phase === 'done' && job.state.artifact ? (
        <ArtifactView artifact={job.state.artifact} onDeleted={job.reset}>
          <Link className="btn btn--secondary btn--compact" to={`${EDIT_HREF}?source=${encodeURIComponent(job.state.artifact.id)}`}>
            <Icon name="edit" size={20} />
            Edit
          </Link>
        </ArtifactView>
      ) : null}
    </Frame>
  );
}

function Frame({ children }: { children: ReactNode }): ReactElement {
  return (
    <section className="page img-page" aria-labelledby="img-create-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="img-create-title" className="page__title">
            Create a picture
          </h1>
          <p className="muted page__description">Describe what you would like to see, and Hearth draws it on this computer. Your pictures are yours: nobody else sees them.</p>
        </div>
      </div>
      <ImageSubnav />
      {children}
    </section>
  );
}
