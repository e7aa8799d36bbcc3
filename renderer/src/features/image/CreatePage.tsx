// Create: a picture (or, when this engine can, a short clip) from words, simple enough for a child.
// With ?animate=<id> it brings one of the member's pictures to life instead (i2v). A prompt box, style chips (Auto and the
// nine styles), the shape (Auto, tall, wide, square), Fast mode, and the add-ons (LoRAs) this member
// may use, hidden when there are none. Create streams the job (POST /generate): the place in the
// queue, then a step bar and live preview frames, Cancel, and the finished picture with Download and
// Delete. Half-way through, when a vision model can look, Hearth checks the preview once
// (POST /preview-check) and offers a corrected prompt as a chip. A reload follows the running job
// again (GET /building, then its stream). The engine's state comes first (EngineNotice).
import { useEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { MAX_JOB_LORAS as SERVER_MAX_JOB_LORAS, MAX_PROMPT_CHARS as SERVER_MAX_PROMPT } from '../../../../server/modules/image-gen/schema.js';
import { Icon, Spinner } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { ArtifactView, availabilityOf, EngineNotice, ImageSubnav, JobEndBanner, JobView, PictureActions, readinessOf } from './parts';
import { previewCheck, useBuilding, useImageStatus, useMemberLoras } from './queries';
import { artifactApi, CREATE_HREF, ENGINE_ADMIN_HREF, ORIENTATION_TEXT, ORIENTATIONS, STYLE_TEXT, STYLES, type MemberLora, type OrientationChoice, type PreviewCheckResponse, type Style } from './types';
import { useUser } from '../../app/session';
import { useImageJob } from './useImageJob';
import { SegmentedControl } from '../../ui/SegmentedControl';
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
  const [make, setMake] = useState<'picture' | 'clip'>('picture');
  const [params] = useSearchParams();
  const animateId = params.get('animate');
  const sourceTitle = (useLocation().state as { title?: unknown } | null)?.title;
  const isAdmin = useUser().role === 'admin';
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
  const video = availabilityOf(status.data, 'video');
  const i2v = availabilityOf(status.data, 'i2v');
  // a clip is offered only when this engine can make one; the choice falls back to a picture otherwise
  const clip = make === 'clip' && ready && video.available;
  const canCreate = ready && txt2img.available && prompt.trim().length > 0 && !job.running;
  const canAnimate = ready && i2v.available && !job.running;
  const available: MemberLora[] = loras.data ?? [];

  const create = () => {
    setSuggestion(null);
    job.generate({
      ...(clip ? { pipeline: 'video' } : {}),
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

      {animateId ? (
        <section className="img-animate" aria-labelledby="img-animate-title" data-testid="animate-panel">
          <h2 id="img-animate-title" className="field__label">
            Bring this picture to life
          </h2>
          <img className="img-animate__source" src={artifactApi(animateId)} alt={typeof sourceTitle === 'string' ? sourceTitle : 'The picture to animate'} />
          <p className="muted">Hearth makes a short clip from it, a few seconds long. This can take several minutes.</p>
          {ready && !i2v.available ? <Unavailable reason={i2v.reason} isAdmin={isAdmin} testId="i2v-unavailable" /> : null}
          <Switch label="Fast mode" hint="Quicker, with a little less detail." checked={fast} onCheckedChange={setFast} testId="animate-fast" />
          <div className="actions">
            <button
              type="button"
              className="btn btn--primary"
              disabled={!canAnimate}
              data-testid="animate"
              onClick={() => job.generate({ pipeline: 'i2v', sourceId: animateId, prompt: typeof sourceTitle === 'string' && sourceTitle.trim() ? sourceTitle.trim().slice(0, MAX_PROMPT_CHARS) : 'A picture brought to life', fast })}
            >
              {job.running ? <Spinner size={18} /> : <Icon name="sparkles" size={20} />}
              {job.running ? 'Animating…' : 'Animate'}
            </button>
            <Link className="btn btn--ghost" to={CREATE_HREF}>
              Make something new instead
            </Link>
          </div>
        </section>
      ) : (
        <form
          className="img-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (canCreate) create();
          }}
        >
          <fieldset className="img-fieldset">
            <legend className="field__label">Make</legend>
            <SegmentedControl
              label="Make"
              value={clip ? 'clip' : 'picture'}
              onChange={setMake}
              options={[
                { value: 'picture', label: 'A picture' },
                { value: 'clip', label: 'A short clip', disabled: !ready || !video.available, describedBy: ready && !video.available ? 'clip-unavailable' : undefined, testId: 'make-clip' },
              ]}
            />
            {ready && !video.available ? <Unavailable reason={video.reason} isAdmin={isAdmin} testId="video-unavailable" id="clip-unavailable" /> : null}
            {clip ? <p className="field__hint">A two-second animation from your words. It takes longer than a picture: often several minutes.</p> : null}
          </fieldset>

          <div className="field">
            <label htmlFor="img-prompt" className="field__label">
              {clip ? 'What should the clip show?' : 'What should the picture show?'}
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
            <SegmentedControl label="Shape" value={orientation} onChange={setOrientation} options={ORIENTATIONS.map((o) => ({ value: o, label: ORIENTATION_TEXT[o] }))} />
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
              {job.running ? 'Creating…' : clip ? 'Create the clip' : 'Create'}
            </button>
          </div>
        </form>
      )}

      <JobView job={job} what={clip || animateId ? 'clip' : 'picture'} />

      <JobEndBanner job={job} stopped="Stopped. Nothing was saved." />
      {job.state.phase === 'done' && job.state.artifact ? (
        <ArtifactView artifact={job.state.artifact} onDeleted={job.reset}>
          <PictureActions artifact={job.state.artifact} status={status.data} />
        </ArtifactView>
      ) : null}
    </Frame>
  );
}

/** Why a clip cannot be made here, and for an admin the way to the engine page where it is fixed. */
function Unavailable({ reason, isAdmin, testId, id }: { reason: string | null; isAdmin: boolean; testId: string; id?: string }): ReactElement {
  return (
    <div className="field__hint" id={id} data-testid={testId}>
      <p>{reason ?? 'This is not set up on this computer yet.'}</p>
      {isAdmin ? (
        <Link to={ENGINE_ADMIN_HREF}>Open the image engine settings</Link>
      ) : (
        <p>Ask an admin in your household if you would like it.</p>
      )}
    </div>
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
